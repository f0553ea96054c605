package cdr

import (
	"errors"
	"io"
	"testing"
)

func TestReset(t *testing.T) {
	var r Reader
	if err := r.Reset([]byte{0, 1, 0, 0, 7, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if v := r.Uint32("v"); v != 7 || r.Err() != nil {
		t.Errorf("got %d, %v; want 7", v, r.Err())
	}
	if err := r.Reset([]byte{0, 0, 0, 0, 0, 0, 0, 9}); err != nil || r.Uint32("v") != 9 {
		t.Errorf("big endian: %v", err)
	}
	if err := r.Reset([]byte{0, 1}); !errors.Is(err, io.ErrUnexpectedEOF) || r.Uint8("x") != 0 || r.Err() == nil {
		t.Errorf("short: got %v", err)
	}
	if err := r.Reset([]byte{0, 9, 0, 0}); !errors.Is(err, ErrBadHeader) {
		t.Errorf("bad header: got %v", err)
	}
	p := []byte{0, 1, 0, 0, 1, 0, 0, 0}
	if n := testing.AllocsPerRun(100, func() {
		var r Reader
		_ = r.Reset(p)
		_ = r.Uint32("v")
	}); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
