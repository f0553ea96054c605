package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Human output fits 100 columns: every text golden of experiment,
// predict, pub, monitor, bag clock and bag inspect (lint's text is its
// own package's work in progress).
func TestTextGoldensFit100Columns(t *testing.T) {
	var paths []string
	for _, glob := range []string{"testdata/experiment/*.golden", "testdata/live/*.txt", "testdata/bag/*.golden"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d goldens", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(b), "{") || strings.HasPrefix(string(b), "<?xml") {
			continue // JSON lines, SARIF, JUnit XML
		}
		for i, line := range strings.Split(string(b), "\n") {
			if n := len([]rune(line)); n > tableWidth {
				t.Errorf("%s:%d: %d columns", p, i+1, n)
			}
		}
	}
}

func TestTableDropsOptionalColumnsThenFallsBackToRecords(t *testing.T) {
	var b strings.Builder
	tb := newTable("a", "b", "c?")
	tb.row("x", strings.Repeat("y", 60), strings.Repeat("z", 40))
	tb.write(&b, false)
	if got := b.String(); strings.Contains(got, "zzz") || !strings.Contains(got, "(1 more column(s) with --wide)") {
		t.Errorf("optional column kept:\n%s", got)
	}
	b.Reset()
	tb.write(&b, true)
	if !strings.Contains(b.String(), strings.Repeat("z", 40)) {
		t.Errorf("--wide dropped a column:\n%s", b.String())
	}
	b.Reset()
	tb = newTable("rule", "expression", "result")
	tb.row("R30", strings.Repeat("e", 70), strings.Repeat("r", 50))
	tb.write(&b, false)
	for _, line := range strings.Split(b.String(), "\n") {
		if len(line) > tableWidth {
			t.Errorf("record layout too wide: %q", line)
		}
	}
	if !strings.Contains(b.String(), "    result: rrr") {
		t.Errorf("record layout:\n%s", b.String())
	}
}

// Every command's help fits 100 columns too.
func TestHelpFits100Columns(t *testing.T) {
	leaves, groups := commandPaths(NewRoot(&Env{}), nil)
	for _, path := range append(append(leaves, groups...), []string{}) {
		out, _, code := runSimclock(t, append(path, "--help")...)
		if code != ExitOK {
			t.Fatalf("%v --help: exit %d", path, code)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > tableWidth {
				t.Errorf("simclock %s --help: %d columns: %s", strings.Join(path, " "), n, line)
			}
		}
	}
}
