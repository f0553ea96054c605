// Package sqlitedirect is package bag's door to SQLite's own interface
// (modernc.org/sqlite/lib, the C API translated to Go): one query on a
// read-only connection of its own, stepped row by row, its values read in
// place. It is the only simclock package that holds SQLite's memory,
// and so imports unsafe; deps_test.go places it below package bag.
//
// # Why not the driver
//
// modernc.org/sqlite opens every connection SQLITE_OPEN_FULLMUTEX, so
// each step and each column value enters and leaves the connection's
// mutex (modernc.org/libc's pthread emulation): eight times per row of
// (integer, integer, blob), which was 44 % of bag inspect's CPU on a
// .db3 of small messages, more than SQLite's own work. A Stmt is used by
// one goroutine, so its connection is opened SQLITE_OPEN_NOMUTEX. The
// driver stays the way in for everything else (the schema, and rows this
// package leaves to it): its conversions and its error messages are the
// ones users see.
package sqlitedirect

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// A Stmt is a query on a read-only connection of its own, used by one
// goroutine.
type Stmt struct {
	tls  *libc.TLS
	mu   sync.Mutex // db against an interrupt from ctx
	db   uintptr    // sqlite3*
	stmt uintptr    // sqlite3_stmt*
	stop func() bool
	ctx  context.Context
	done atomic.Bool // ctx is done: the progress handler stops SQLite
}

// Error is SQLite's result code for a failed open, prepare or step.
type Error struct {
	Op   string
	Code int32
}

func (e *Error) Error() string { return fmt.Sprintf("sqlite3 %s: result code %d", e.Op, e.Code) }

// Query opens the database named by uri (a "file:" URI: mode=ro,
// immutable=1 and the like apply) read-only, without a mutex, and
// prepares query. When ctx is done, SQLite is interrupted (a long first
// step, a sort) and Step returns ctx's error.
func Query(ctx context.Context, uri, query string) (_ *Stmt, err error) {
	s := &Stmt{tls: libc.NewTLS(), ctx: ctx}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	zName, err := libc.CString(uri)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(s.tls, zName)
	zQuery, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(s.tls, zQuery)
	pp := s.tls.Alloc(int(unsafe.Sizeof(uintptr(0)))) // sqlite3** then sqlite3_stmt**
	defer s.tls.Free(int(unsafe.Sizeof(uintptr(0))))

	rc := sqlite3.Xsqlite3_open_v2(s.tls, zName, pp, sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_URI, 0)
	s.db = *(*uintptr)(mem(pp)) // set even on failure, to be closed
	if rc != sqlite3.SQLITE_OK {
		return nil, &Error{"open", rc}
	}
	// SQLite forgets an interrupt that comes before its first step has
	// started: the progress handler (every 1000 VM instructions) stops it
	// all the same, as the driver's does.
	stmts.Store(s.db, s)
	sqlite3.Xsqlite3_progress_handler(s.tls, s.db, 1000, progressFunc, s.db)
	s.stop = context.AfterFunc(ctx, func() {
		s.done.Store(true)
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.db != 0 {
			tls := libc.NewTLS() // not s.tls: the reading goroutine may be using it
			sqlite3.Xsqlite3_interrupt(tls, s.db)
			tls.Close()
		}
	})
	if rc := sqlite3.Xsqlite3_prepare_v2(s.tls, s.db, zQuery, -1, pp, 0); rc != sqlite3.SQLITE_OK {
		return nil, &Error{"prepare", rc}
	}
	s.stmt = *(*uintptr)(mem(pp))
	return s, nil
}

// Step moves to the next row: true when there is one, false at the end;
// an *Error when SQLite fails, ctx's error when it was interrupted.
func (s *Stmt) Step() (bool, error) {
	switch rc := sqlite3.Xsqlite3_step(s.tls, s.stmt); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		if err := s.ctx.Err(); err != nil {
			return false, err
		}
		return false, &Error{"step", rc}
	}
}

// Int64 returns column i of the row when it holds an integer.
func (s *Stmt) Int64(i int) (int64, bool) {
	if sqlite3.Xsqlite3_column_type(s.tls, s.stmt, int32(i)) != sqlite3.SQLITE_INTEGER {
		return 0, false
	}
	return sqlite3.Xsqlite3_column_int64(s.tls, s.stmt, int32(i)), true
}

// Blob returns column i of the row when it holds a blob or NULL (nil, as
// is an empty blob, as database/sql.RawBytes reads them). The bytes are
// SQLite's own, valid until the next Step or Close: copy what is kept.
func (s *Stmt) Blob(i int) ([]byte, bool) {
	switch sqlite3.Xsqlite3_column_type(s.tls, s.stmt, int32(i)) {
	case sqlite3.SQLITE_NULL:
		return nil, true
	case sqlite3.SQLITE_BLOB:
		p := sqlite3.Xsqlite3_column_blob(s.tls, s.stmt, int32(i))
		n := sqlite3.Xsqlite3_column_bytes(s.tls, s.stmt, int32(i))
		if p == 0 || n <= 0 {
			return nil, true
		}
		return unsafe.Slice((*byte)(mem(p)), n), true
	}
	return nil, false
}

// Close finalizes the query and closes the connection.
func (s *Stmt) Close() {
	if s.stop != nil {
		s.stop()
	}
	if s.stmt != 0 {
		sqlite3.Xsqlite3_finalize(s.tls, s.stmt)
		s.stmt = 0
	}
	s.mu.Lock()
	if s.db != 0 {
		stmts.Delete(s.db)
		sqlite3.Xsqlite3_close_v2(s.tls, s.db)
		s.db = 0
	}
	s.mu.Unlock()
	s.tls.Close()
}

// stmts are the open Stmts by connection (sqlite3*), for progress.
var stmts sync.Map

// progress is SQLite's progress handler: non-zero stops the statement.
func progress(_ *libc.TLS, db uintptr) int32 {
	if s, ok := stmts.Load(db); ok && s.(*Stmt).done.Load() {
		return 1
	}
	return 0
}

// progressFunc is progress as a C function pointer (a Go func value's
// representation, golang.org/s/go11func, as modernc.org/sqlite passes its
// own callbacks).
var progressFunc = *(*uintptr)(unsafe.Pointer(&struct {
	f func(*libc.TLS, uintptr) int32
}{progress}))

// mem is SQLite's memory at p (modernc.org/libc's heap, outside Go's).
func mem(p uintptr) unsafe.Pointer { return unsafe.Add(nil, p) }
