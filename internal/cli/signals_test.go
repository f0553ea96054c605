package cli

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGINT and SIGTERM end a live run the same way, in a real process: the
// summary is printed and the exit status is the run's verdict (0 here).
// Nothing here times the run: it waits for the env line, signals, and
// reads to the end.
func TestSignalsEndWithSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildSimclock(t, t.TempDir())
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, args := range [][]string{
			{"pub", "--transport", "inproc", "--format", "json"},
			{"monitor", "--transport", "inproc", "--format", "json", "--allow-no-clock"},
			{"bag", "clock", "--transport", "inproc", "--loop", "--format", "json", "testdata/bag/hazards.mcap"},
		} {
			t.Run(sig.String()+"/"+strings.Join(args[:1], " "), func(t *testing.T) {
				cmd := exec.Command(bin, args...)
				stdout, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				lines := make(chan string, 1000)
				go func() {
					sc := bufio.NewScanner(stdout)
					for sc.Scan() {
						lines <- sc.Text()
					}
					close(lines)
					done <- cmd.Wait()
				}()
				select {
				case first := <-lines:
					if !strings.HasPrefix(first, `{"kind":"env"`) {
						t.Fatalf("first line %q", first)
					}
				case <-time.After(30 * time.Second):
					cmd.Process.Kill() //nolint:errcheck // test cleanup
					t.Fatal("no env line")
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				var last string
				for l := range lines {
					last = l
				}
				if err := <-done; err != nil {
					t.Errorf("exit: %v, want status 0", err)
				}
				if !strings.HasPrefix(last, `{"kind":"summary"`) {
					t.Errorf("last line %q, want the summary", last)
				}
			})
		}
	}
}
