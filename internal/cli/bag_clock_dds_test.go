package cli

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// Domain ids of the bag clock DDS tests (the bag helper's range, 140-149).
var (
	domainBagClockBestEffort = testdomain.ID(140)
	domainBagClockReliable   = testdomain.ID(141)
)

// TestBagClockOverDDS: simclock bag clock publishes on DDS by default, on
// loopback, best-effort as rosbag2's player does: a best-effort
// subscription (every TimeSource's) receives the bag's timeline, a
// reliable one does not match, unless --reliable.
func TestBagClockOverDDS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs DDS")
	}
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	const start, end = 1763999998 * int64(time.Second), 1764000003990 * int64(time.Millisecond) // testdata/bag/sqlite3
	for _, tc := range []struct {
		domain       int
		args         []string
		wantReliable bool
	}{
		{domainBagClockBestEffort, nil, false},
		{domainBagClockReliable, []string{"--reliable"}, true},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		tr, err := dds.Open(ctx, dds.Config{Domain: uint32(tc.domain), URI: loopbackConfigURI(t)})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		be, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockSubscriptionQoS)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 100, Reliability: transport.Reliable, Durability: transport.Volatile})
		if err != nil {
			t.Fatal(err)
		}
		// It plays until the subscribers have seen what they need (another
		// process discovers them when it does: on a loaded machine that may
		// take seconds), then is interrupted: the best-effort subscriber
		// receives, and the reliable one receives too (--reliable) or bag
		// clock has seen it and warned that it does not match, so it never
		// will.
		args := append([]string{"bag", "clock", "--clock-hz", "20", "--loop", "--duration", "60", "--format", "json"}, tc.args...)
		p := startSimclock(t, bin, tc.domain, "bag clock", append(args, "testdata/bag/sqlite3")...)
		var nBE, nRel int
		warned := false
		for nBE == 0 || (tc.wantReliable && nRel == 0) || (!tc.wantReliable && !warned) {
			select {
			case <-be.Notify():
			case <-rel.Notify():
			case l, ok := <-p.lines:
				if !ok {
					t.Fatalf("%v: bag clock exited; best-effort subscriber got %d, reliable %d, warned %v; stderr:\n%s",
						tc.args, nBE, nRel, warned, p.stderr.String())
				}
				warned = warned || strings.Contains(l, `"kind":"qos_mismatch"`) && strings.Contains(l, "RELIABLE")
			case <-ctx.Done():
				t.Fatalf("%v: best-effort subscriber got %d, reliable %d, warned %v after 30 s", tc.args, nBE, nRel, warned)
			}
			for s, ok := be.Take(); ok; s, ok = be.Take() {
				c, err := timemsg.UnmarshalClock(s.Data)
				if v := c.Clock.Nanoseconds(); err != nil || v < start || v > end {
					t.Errorf("best-effort subscriber got %d (%v), outside the bag's [%d, %d]", v, err, start, end)
				}
				nBE++
			}
			for _, ok := rel.Take(); ok; _, ok = rel.Take() {
				nRel++
			}
		}
		p.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // checked by the exit status
		if code := p.exitCode(t, 10*time.Second); code != 0 {
			t.Errorf("%v: exit %d; stderr:\n%s", tc.args, code, p.stderr.String())
		}
		for _, ok := rel.Take(); ok; _, ok = rel.Take() {
			nRel++
		}
		if nBE == 0 || (nRel > 0) != tc.wantReliable {
			t.Errorf("%v: best-effort subscriber got %d, reliable %d; want the reliable one to match: %v", tc.args, nBE, nRel, tc.wantReliable)
		}
		tr.Close()
		cancel()
	}
}
