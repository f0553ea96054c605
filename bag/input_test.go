package bag

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestInputRefused: what cannot be a bag is refused before anything is
// opened, with ErrInput and no report: a missing file, a named pipe (whose
// open would block until a writer came), a device, standard input, and a
// bag directory holding a pipe where a storage file should be.
func TestInputRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.mcap")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	bagDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(bagDir, "run_0.db3"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing.mcap"), fifo, "/dev/null", "-", bagDir} {
		rep, err := Inspect(context.Background(), []string{p}, Options{})
		if !errors.Is(err, ErrInput) || rep != nil {
			t.Errorf("%s: %v, report %v; want ErrInput and no report", p, err, rep != nil)
		}
		if _, _, err := Span(context.Background(), []string{p}); !errors.Is(err, ErrInput) {
			t.Errorf("Span %s: %v; want ErrInput", p, err)
		}
	}
}

// TestInterrupted: a context canceled while a bag is read stops every
// storage's reading (MCAP, sqlite3, compressed whole) between files or
// chunks, and is reported as context.Canceled: never as damage or a
// complete report.
func TestInterrupted(t *testing.T) {
	topics := []genTopic{clockTopic, rangeTopic}
	msgs := hazardMsgs()
	half := len(msgs) / 2
	for _, storage := range []string{"mcap", "sqlite3", "mcap.zstd", "db3.zstd"} {
		t.Run(storage, func(t *testing.T) {
			dir := t.TempDir()
			var names []string
			for i, part := range [][]genMsg{msgs[:half], msgs[half:]} {
				name := filepath.Join(dir, "run_"+string(rune('0'+i))+".mcap")
				if storage == "sqlite3" || storage == "db3.zstd" {
					name = filepath.Join(dir, "run_"+string(rune('0'+i))+".db3")
					writeDB3(t, name, db3Options{definitions: true}, topics, part)
				} else {
					writeBag(t, name, writerModes["chunked"], topics, part)
				}
				if storage == "mcap.zstd" || storage == "db3.zstd" {
					zstdFile(t, name)
					name += ".zstd"
				}
				names = append(names, name)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rep, err := Inspect(ctx, names, Options{Progress: func(done, total int64) { cancel() }})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			var re *ReadError
			if errors.As(err, &re) || rep != nil && rep.Complete {
				t.Errorf("interrupted reading reported as %v, complete %v", err, rep != nil && rep.Complete)
			}
			if rep != nil && rep.Messages >= int64(len(msgs)) {
				t.Errorf("read all %d messages after the cancel", rep.Messages)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 2 {
				t.Errorf("%d files beside the bag, want its 2", len(ents))
			}
		})
	}
}
