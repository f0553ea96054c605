//go:build !cgo

package lint

import (
	"errors"
	"testing"
)

// Without cgo there is no parser: every entry point says so.
func TestNoParser(t *testing.T) {
	if _, err := Source("a.py", []byte("x = 1\n"), Config{}); !errors.Is(err, ErrNoParser) {
		t.Fatalf("Source: err = %v, want ErrNoParser", err)
	}
	if _, err := Run(t.Context(), []string{"testdata"}, Config{}); !errors.Is(err, ErrNoParser) {
		t.Fatalf("Run: err = %v, want ErrNoParser", err)
	}
}
