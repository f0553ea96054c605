package bag

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/simclock/simclock/bag/internal/sqlitedirect"

	// modernc.org/sqlite is SQLite itself translated to Go: no cgo, so the
	// CGO_ENABLED=0 build reads sqlite3 bags too, and it is the same
	// SQLite that wrote them (file format, WAL, corruption checks), kept
	// current with upstream releases.
	_ "modernc.org/sqlite"
)

// sqliteMagic starts every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// sqliteReader is the sqlite3 storage: the schema rosbag2_storage_default_plugins
// writes, from Dashing to Jazzy. Tables topics (id, name, type,
// serialization_format, offered_qos_profiles since Foxy,
// type_description_hash since Iron), messages (id, topic_id, timestamp,
// data), schema (schema_version, ros_distro) and metadata since Humble,
// message_definitions (topic_type, encoding, encoded_message_definition)
// since Iron. Messages are read in timestamp order, as rosbag2 plays
// them; timestamp is the recorder's receive time, so it is the log time,
// and sqlite3 bags record no publish time.
//
// Type definitions: bags written before Iron hold none. The analysis then
// falls back to the definitions shipped with package ros2msg for common
// interface packages, and reports other types as unknown.
type sqliteReader struct{}

func (sqliteReader) close() {}

// sqliteDSN returns the database name of a file for the driver: a
// "file:" URI, which the driver hands to SQLite whole so that SQLite
// applies mode and immutable itself. mode=ro opens the file read-only;
// immutable=1 also tells SQLite that nothing else changes it, so it takes
// no lock and opens no -journal, -wal or -shm file: nothing is created or
// touched beside the bag.
func sqliteDSN(path string, immutable, truncated bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := "mode=ro&_pragma=query_only(1)"
	if truncated {
		// SQLite refuses a file shorter than its header says unless the
		// schema is writable; query_only keeps it read-only all the same,
		// and the pages present are read up to the first missing one.
		q += "&_pragma=writable_schema(1)"
	}
	if immutable {
		q += "&immutable=1"
	}
	return (&url.URL{Scheme: "file", Path: abs, RawQuery: q}).String(), nil
}

func (sqliteReader) read(ctx context.Context, path string, fi *FileInfo, s *sink) error {
	fi.Storage = "sqlite3"
	fail := func(sentinel error, what string, err error) error {
		if err != nil {
			return &ReadError{Path: fi.Path, Offset: -1, Record: what, Err: fmt.Errorf("%w: %v", sentinel, err)}
		}
		return &ReadError{Path: fi.Path, Offset: -1, Record: what, Err: sentinel}
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	var hdr [100]byte
	n, _ := io.ReadFull(f, hdr[:])
	st, serr := f.Stat()
	f.Close()
	if serr != nil {
		return fmt.Errorf("bag: %w", serr)
	}
	if fi.Bytes == 0 {
		fi.Bytes = st.Size()
	}
	if n < len(sqliteMagic) || !bytes.Equal(hdr[:len(sqliteMagic)], sqliteMagic) {
		if n < len(sqliteMagic) && bytes.Equal(hdr[:n], sqliteMagic[:n]) {
			return &ReadError{Path: fi.Path, Offset: 0, Record: "SQLite header", Err: fmt.Errorf("%w: %d bytes", ErrTruncated, n)}
		}
		return &ReadError{Path: fi.Path, Offset: 0, Record: "SQLite header", Err: ErrNotSQLite}
	}
	truncErr := sqliteTruncated(hdr[:n], st.Size(), fi.Path)
	keep := int64(-1) // bytes of the file to read: all
	if ps := sqlitePageSize(hdr[:n]); ps > 0 && st.Size()%ps != 0 {
		// The file ends inside a page. SQLite would read the missing end
		// of that page as zeros and hand out rows made of them; the torn
		// page is left out instead, read from a private copy of the
		// whole pages before it.
		keep = st.Size() - st.Size()%ps
		truncErr = &ReadError{Path: fi.Path, Offset: keep, Record: "SQLite pages",
			Err: fmt.Errorf("%w: the file ends %d bytes into page %d (of %d bytes): that page is left out, the report covers the pages before it",
				ErrTruncated, st.Size()%ps, keep/ps+1, ps)}
	}
	db, dsn, done, err := openSQLite(ctx, path, keep, truncErr != nil)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // interrupted, not damage
		}
		if truncErr != nil {
			return truncErr
		}
		return fail(ErrCorrupt, "SQLite database", err)
	}
	defer done()
	err = readSQLite(ctx, db, dsn, fi, s)
	if err != nil && truncErr != nil && !errors.Is(err, context.Canceled) {
		return truncErr
	}
	if err == nil && truncErr != nil {
		return truncErr
	}
	return err
}

// sqlitePageSize returns the page size an SQLite header declares, or 0
// when it is not one SQLite writes (a power of two from 512 to 65536).
func sqlitePageSize(hdr []byte) int64 {
	if len(hdr) < 18 {
		return 0
	}
	ps := int64(binary.BigEndian.Uint16(hdr[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 {
		return 0
	}
	return ps
}

// sqliteTruncated checks the database size the header declares against
// the file's: a recording cut off, or copied in part.
func sqliteTruncated(hdr []byte, size int64, path string) error {
	if len(hdr) < 100 {
		return &ReadError{Path: path, Offset: int64(len(hdr)), Record: "SQLite header", Err: fmt.Errorf("%w: %d of its 100 bytes", ErrTruncated, len(hdr))}
	}
	pageSize := int64(binary.BigEndian.Uint16(hdr[16:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(hdr[28:]))
	// The page count is valid when the change counter matches
	// version-valid-for (SQLite file format, section 1.3.7).
	if binary.BigEndian.Uint32(hdr[24:]) != binary.BigEndian.Uint32(hdr[92:]) || pages == 0 {
		return nil
	}
	if want := pages * pageSize; size < want {
		return &ReadError{Path: path, Offset: size, Record: "SQLite pages",
			Err: fmt.Errorf("%w: the header declares %d pages of %d bytes (%d bytes), the file has %d", ErrTruncated, pages, pageSize, want, size)}
	}
	return nil
}

// openSQLite opens a .db3 file without writing anything: immutable, so
// SQLite creates no -wal or -shm file and takes no lock in the user's
// directory. A database whose -wal file holds transactions not yet
// checkpointed (a recorder in WAL mode that was killed) would lose them
// when opened immutable; it is read from a private copy of the file and
// its -wal instead (a hard link of the database when the temporary
// directory allows one), where SQLite may build its -shm index. done
// closes the database and removes the copy.
//
// keep ≥ 0 reads only the first keep bytes of the file (a torn last page
// left out), from a private copy of them. dsn names the database for
// another read-only connection to it.
func openSQLite(ctx context.Context, path string, keep int64, truncated bool) (db *sql.DB, dsn string, done func(), err error) {
	open, cleanup := path, func() {}
	immutable := true
	st, err := os.Stat(path + "-wal")
	wal := err == nil && st.Mode().IsRegular() && st.Size() > 0
	if wal || keep >= 0 {
		dir, err := os.MkdirTemp("", "simclock-db3-*")
		if err != nil {
			return nil, "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		open = filepath.Join(dir, "bag.db3")
		if keep >= 0 {
			err = copyPrefix(ctx, path, open, keep)
		} else {
			err = linkOrCopy(path, open)
		}
		if err == nil && wal {
			err = copyFile(path+"-wal", open+"-wal")
		}
		if err != nil {
			cleanup()
			return nil, "", nil, err
		}
		immutable = !wal
	}
	dsn, err = sqliteDSN(open, immutable, truncated)
	if err != nil {
		cleanup()
		return nil, "", nil, err
	}
	db, err = sql.Open("sqlite", dsn)
	if err != nil {
		cleanup()
		return nil, "", nil, err
	}
	db.SetMaxOpenConns(1)
	var n int
	if err = db.PingContext(ctx); err == nil {
		err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n)
	}
	done = func() { db.Close(); cleanup() }
	if err != nil {
		done()
		return nil, "", nil, err
	}
	return db, dsn, done, nil
}

// linkOrCopy makes dst a hard link of src, or a copy when the file
// systems differ. The database is opened read-only either way.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	return copyFile(src, dst)
}

// copyPrefix copies the first n bytes of src to dst.
func copyPrefix(ctx context.Context, src, dst string, n int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if n > tempFree(dst)-tempReserve {
		out.Close()
		return fmt.Errorf("a copy of its %d whole pages would leave less than %d MiB free in the temporary directory", n, tempReserve>>20)
	}
	for left := n; left > 0; left -= 1 << 24 {
		if err := ctx.Err(); err != nil {
			out.Close()
			return err
		}
		if _, err := io.CopyN(out, in, min(left, 1<<24)); err != nil {
			out.Close()
			return err
		}
	}
	return out.Close()
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// sqliteColumns returns the columns of a table, or nil when it is absent.
func sqliteColumns(ctx context.Context, db *sql.DB, table string) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		cols[n] = true
	}
	if len(cols) == 0 {
		return nil, rows.Err()
	}
	return cols, rows.Err()
}

func readSQLite(ctx context.Context, db *sql.DB, dsn string, fi *FileInfo, s *sink) error {
	fail := func(what string, err error) error {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err() // SQLite says "interrupted": the user's doing, not damage
		}
		sentinel := ErrCorrupt
		if strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "corrupt") {
			sentinel = ErrCorrupt
		}
		return &ReadError{Path: fi.Path, Offset: -1, Record: what, Err: fmt.Errorf("%w: %v", sentinel, err)}
	}
	topicCols, err := sqliteColumns(ctx, db, "topics")
	if err != nil {
		return fail("topics table", err)
	}
	msgCols, err := sqliteColumns(ctx, db, "messages")
	if err != nil {
		return fail("messages table", err)
	}
	for _, c := range []string{"id", "name", "type", "serialization_format"} {
		if !topicCols[c] {
			return fail("topics table", fmt.Errorf("no column \"%s\": not a rosbag2 sqlite3 bag", c))
		}
	}
	for _, c := range []string{"topic_id", "timestamp", "data"} {
		if !msgCols[c] {
			return fail("messages table", fmt.Errorf("no column \"%s\": not a rosbag2 sqlite3 bag", c))
		}
	}
	var version int
	var distro string
	if cols, _ := sqliteColumns(ctx, db, "schema"); cols["schema_version"] {
		q := "SELECT schema_version, '' FROM schema"
		if cols["ros_distro"] {
			q = "SELECT schema_version, ros_distro FROM schema"
		}
		_ = db.QueryRowContext(ctx, q).Scan(&version, &distro)
	}
	fi.Profile = "rosbag2 sqlite3"
	if version > 0 {
		fi.Profile = fmt.Sprintf("rosbag2 sqlite3 schema %d", version)
	}
	fi.Library = distro

	// Message definitions (Iron on), by type.
	defs := map[string][2]string{}
	if cols, _ := sqliteColumns(ctx, db, "message_definitions"); cols["topic_type"] && cols["encoding"] && cols["encoded_message_definition"] {
		rows, err := db.QueryContext(ctx, "SELECT topic_type, encoding, encoded_message_definition FROM message_definitions")
		if err != nil {
			return fail("message_definitions table", err)
		}
		for rows.Next() {
			var typ, enc, def sql.NullString
			if err := rows.Scan(&typ, &enc, &def); err != nil {
				rows.Close()
				return fail("message_definitions table", err)
			}
			defs[typ.String] = [2]string{enc.String, def.String}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fail("message_definitions table", err)
		}
	}

	q := "SELECT id, name, type, serialization_format, "
	if topicCols["offered_qos_profiles"] {
		q += "offered_qos_profiles FROM topics ORDER BY id"
	} else {
		q += "'' FROM topics ORDER BY id"
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return fail("topics table", err)
	}
	chans := map[int64]*channel{}
	var order []*channel
	for rows.Next() {
		var id int64
		var name, typ, format, qos sql.NullString
		if err := rows.Scan(&id, &name, &typ, &format, &qos); err != nil {
			rows.Close()
			return fail("topics table", err)
		}
		c := &channel{Topic: name.String, Type: typ.String, MessageEncoding: format.String, OfferedQoS: qos.String}
		if d, ok := defs[c.Type]; ok && d[1] != "" && d[0] != "unknown" {
			c.SchemaEncoding, c.Definition = d[0], []byte(d[1])
		}
		chans[id] = c
		order = append(order, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail("topics table", err)
	}
	if s.onChannel != nil {
		for _, c := range order {
			s.onChannel(c)
		}
	}

	var total int64
	if s.progress != nil {
		_ = db.QueryRowContext(ctx, "SELECT count(*) FROM messages").Scan(&total)
	}
	// In timestamp order, as rosbag2 plays; when the timestamp index is
	// unreadable (a file cut short loses it first: it is written last),
	// in insertion order, which is the recorder's receive order.
	err = readMessages(ctx, db, dsn, "ORDER BY timestamp, id", chans, fi, s, total)
	if err != nil && fi.Messages == 0 && ctx.Err() == nil {
		err = readMessages(ctx, db, dsn, "ORDER BY id", chans, fi, s, total)
	}
	if err != nil {
		return fail("messages table", err)
	}
	s.progressDone(fi.Bytes)
	return nil
}

// readMessages hands the messages table to the sink in the given order.
// It reads the rows from SQLite itself, on a connection of its own (see
// readDirect). A row whose values are not two integers and a blob (a bag
// not written by rosbag2), or an error from SQLite, sends the reading,
// from that row on, through database/sql, which converts the values, or
// says why it cannot, in its own words.
func readMessages(ctx context.Context, db *sql.DB, dsn, order string, chans map[int64]*channel, fi *FileInfo, s *sink, total int64) error {
	mr := &messageRows{chans: chans, fi: fi, s: s, total: total}
	for id, c := range chans { // rosbag2 numbers topics from 1
		if id >= 0 && id < 1<<12 {
			for int64(len(mr.byID)) <= id {
				mr.byID = append(mr.byID, nil)
			}
			mr.byID[id] = c
		}
	}
	query := "SELECT topic_id, timestamp, data FROM messages " + order
	if !sqliteDirect {
		return mr.readSQL(ctx, db, query, 0)
	}
	done, err := mr.readDirect(ctx, dsn, query)
	if !errors.Is(err, errDirect) {
		return err
	}
	return mr.readSQL(ctx, db, query, done)
}

// sqliteDirect reads the messages from SQLite itself; tests turn it off
// to compare with database/sql's reading.
var sqliteDirect = true

// errDirect stops the direct reading at a row whose values are not of
// the types rosbag2 writes, or at an error from SQLite: database/sql
// reads on from there.
var errDirect = errors.New("left to database/sql")

// messageRows hands rows of the messages table to a sink.
type messageRows struct {
	chans map[int64]*channel
	byID  []*channel // chans of the small ids, indexed by id: no map lookup per row
	fi    *FileInfo
	s     *sink
	total int64
	m     message
}

// row hands one row to the sink.
func (mr *messageRows) row(ctx context.Context, topicID int64) error {
	var c *channel
	if topicID >= 0 && topicID < int64(len(mr.byID)) {
		c = mr.byID[topicID]
	} else {
		c = mr.chans[topicID]
	}
	if c == nil {
		return fmt.Errorf("message %d on topic id %d, which the topics table lacks", mr.fi.Messages, topicID)
	}
	mr.fi.Messages++
	if err := mr.s.onMessage(c, &mr.m); err != nil {
		return err
	}
	if mr.fi.Messages%4096 == 0 {
		if mr.s.progress != nil && mr.total > 0 {
			mr.s.progress(mr.fi.Bytes * mr.fi.Messages / mr.total)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// readDirect reads the rows of query from SQLite itself, on a connection
// of its own without the driver's mutex (package sqlitedirect: half of
// inspect's time on a .db3 of small messages went to it), and returns how
// many it handed to the sink. Same URI (read-only, immutable), same
// query; blobs are read in place, valid until the next row, as the sink
// expects. errDirect when it leaves the rest to database/sql: SQLite
// could not open or read the file, or a row holds values of other types.
func (mr *messageRows) readDirect(ctx context.Context, dsn, query string) (done int64, err error) {
	st, err := sqlitedirect.Query(ctx, dsn, query)
	if err != nil {
		return 0, errDirect
	}
	defer st.Close()
	for {
		ok, err := st.Step()
		if err != nil {
			if errors.As(err, new(*sqlitedirect.Error)) {
				return done, errDirect
			}
			return done, err // interrupted: the user's doing
		}
		if !ok {
			return done, nil
		}
		topicID, ok1 := st.Int64(0)
		logTime, ok2 := st.Int64(1)
		data, ok3 := st.Blob(2)
		if !ok1 || !ok2 || !ok3 {
			return done, errDirect
		}
		mr.m.LogTime, mr.m.Data = logTime, data
		if err := mr.row(ctx, topicID); err != nil {
			return done, err
		}
		done++
	}
}

// readSQL reads the rows of query through database/sql, after the first
// skip rows.
func (mr *messageRows) readSQL(ctx context.Context, db *sql.DB, query string, skip int64) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	var data sql.RawBytes
	var topicID int64
	for n := int64(0); rows.Next(); n++ {
		if n < skip {
			continue
		}
		if err := rows.Scan(&topicID, &mr.m.LogTime, &data); err != nil {
			return err
		}
		mr.m.Data = data
		if err := mr.row(ctx, topicID); err != nil {
			return err
		}
	}
	return rows.Err()
}
