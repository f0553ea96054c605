package sqlitedirect

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	_ "modernc.org/sqlite"
)

// testDB writes a database of rows (a, b, c) with values of every type
// and returns its read-only, immutable URI.
func testDB(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.db3")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE r(a, b, c)",
		"INSERT INTO r VALUES (1, 10, x'0102'), (2, 20, NULL), (3, 30, x''), ('x', 1.5, 'text')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return (&url.URL{Scheme: "file", Path: p, RawQuery: "mode=ro&immutable=1"}).String()
}

// Rows come as SQLite holds them: integers and blobs (NULL and an empty
// blob as nil) say so, other types do not; the file is left as it was.
func TestStmtReadsRows(t *testing.T) {
	uri := testDB(t)
	path := uri[len("file:"):]
	path = path[:len(path)-len("?mode=ro&immutable=1")]
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Query(context.Background(), uri, "SELECT a, b, c FROM r ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		a, b      int64
		c         []byte
		okA, okB  bool
		okC, nilC bool
	}
	var got []row
	for {
		more, err := st.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		var r row
		r.a, r.okA = st.Int64(0)
		r.b, r.okB = st.Int64(1)
		c, okC := st.Blob(2)
		r.c, r.okC, r.nilC = bytes.Clone(c), okC, c == nil
		got = append(got, r)
	}
	st.Close()
	want := []row{
		{a: 1, b: 10, c: []byte{1, 2}, okA: true, okB: true, okC: true},
		{a: 2, b: 20, okA: true, okB: true, okC: true, nilC: true},
		{a: 3, b: 30, okA: true, okB: true, okC: true, nilC: true},
		{nilC: true}, // text, a real, text: none of the types asked for
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.a != w.a || g.b != w.b || !bytes.Equal(g.c, w.c) || g.okA != w.okA || g.okB != w.okB || g.okC != w.okC || g.nilC != w.nilC {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the database changed (%v)", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("%d files beside the database, want none", len(ents)-1)
	}
}

// SQLite's failures are *Error; the connection is read-only.
func TestStmtErrors(t *testing.T) {
	uri := testDB(t)
	var e *Error
	if _, err := Query(context.Background(), "file:"+filepath.Join(t.TempDir(), "none.db3")+"?mode=ro", "SELECT 1"); !errors.As(err, &e) || e.Op != "open" {
		t.Errorf("a missing file: %v, want an open *Error", err)
	}
	if _, err := Query(context.Background(), uri, "SELECT nothing FROM nowhere"); !errors.As(err, &e) || e.Op != "prepare" {
		t.Errorf("a bad query: %v, want a prepare *Error", err)
	}
	st, err := Query(context.Background(), uri, "INSERT INTO r VALUES (9, 9, 9)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Step(); !errors.As(err, &e) || e.Op != "step" {
		t.Errorf("a write: %v, want a step *Error", err)
	}
}

// endless is a query that never ends on its own: its first step counts
// without end.
const endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT max(x) FROM c"

// endlessStmt prepares endless on the test database under a context the
// caller cancels; the statement is closed when the test ends.
func endlessStmt(t *testing.T) (*Stmt, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	st, err := Query(ctx, testDB(t), endless)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(); cancel() })
	return st, cancel
}

// A query that never ends on its own stops when ctx is canceled: SQLite
// is interrupted in the middle of its step, and Step says why.
func TestStmtInterrupted(t *testing.T) {
	st, cancel := endlessStmt(t)
	go cancel()
	if more, err := st.Step(); more || !errors.Is(err, context.Canceled) {
		t.Errorf("Step: %v, %v; want context.Canceled", more, err)
	}
}

// SQLite forgets an interrupt that comes before the statement starts: a
// ctx canceled between Query and Step stops the step all the same.
func TestStmtCanceledBeforeStep(t *testing.T) {
	st, cancel := endlessStmt(t)
	cancel()
	for !st.done.Load() { // the interrupt has been delivered, to no statement
		runtime.Gosched()
	}
	if more, err := st.Step(); more || !errors.Is(err, context.Canceled) {
		t.Errorf("Step: %v, %v; want context.Canceled", more, err)
	}
}
