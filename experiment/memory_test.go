package experiment

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// liveHeapAfter runs one startup scenario of duration d in virtual time,
// with the collector running after every 1 % of heap growth, and returns
// the live heap the last collection of the run found, in bytes: what the
// run held near its end. It measures bytes, not time.
func liveHeapAfter(t testing.TB, d time.Duration) uint64 {
	cfg := DefaultStartup()
	cfg.Starts = []time.Duration{time.Second}
	cfg.ClockStep = 50 * time.Millisecond // 20 messages per sim second: the timers still tick at 10 and 20 Hz
	cfg.Duration = d
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	res, err := RunStartup(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	runtime.KeepAlive(res)
	return sample[0].Value.Uint64()
}

// A startup run's memory does not grow with its length: ten times the
// duration (ten times the /clock messages and callbacks) leaves the live
// heap within 256 KiB. Before the counts were kept as the run went, a
// run held every /clock value and every tick: 1.3 MB more at 500 s than
// at 50 s, and 25 000 s took 192 MB.
func TestStartupMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 44 000 /clock messages in virtual time")
	}
	short := liveHeapAfter(t, 200*time.Second)
	long := liveHeapAfter(t, 2000*time.Second)
	t.Logf("live heap near the end of the run: %d KiB at 200 s, %d KiB at 2000 s", short>>10, long>>10)
	if long > short+256<<10 {
		t.Errorf("a 2000 s run holds %d KiB, a 200 s run %d KiB: memory grows with --duration", long>>10, short>>10)
	}
}
