package node_test

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// simRun is what a subject node saw while a simulator drove /clock.
type simRun struct {
	ticks     []int64 // ROS now at each call of the f Hz sim-time timer
	preClock  []int64 // ROS now read by code running before the first /clock
	preKinds  map[string]int
	firstTick int64
}

// runSim builds a simulator node and a subject node on one virtual-time
// executor and in-process bus. The simulator publishes /clock from a
// steady (wall) timer every millisecond of steady time: S, S+Δ, S+2Δ, …
// with Δ = 1 ms, after a sensor message at 0.5 ms. The subject (use_sim_time
// on) has an f Hz timer on its ROS clock and records now() at each tick
// for 3 s of sim time past S; its constructor, a 0.25 ms wall timer and
// its sensor subscription record now() while no /clock has arrived.
func runSim(t *testing.T, f int, startMs int64) simRun {
	w := newWorld(t)
	sim := w.node("sim", node.Options{})
	publish := w.clockPublisher(sim)
	sensor, err := sim.Publisher("/scan", "sensor_msgs/msg/LaserScan", transport.QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	const delta = int64(time.Millisecond)
	next := startMs * int64(time.Millisecond)
	if _, err := sim.CreateWallTimer(time.Millisecond, func(timer.Info) { publish(next); next += delta }); err != nil {
		t.Fatal(err)
	}
	sent := false
	if _, err := sim.CreateWallTimer(500*time.Microsecond, func(timer.Info) {
		if !sent {
			sent = true
			_ = sensor.Publish(t.Context(), []byte{0})
		}
	}); err != nil {
		t.Fatal(err)
	}

	subject := w.node("subject", node.Options{UseSimTime: true})
	run := simRun{preKinds: map[string]int{}}
	started := subject.TimeSource().FirstClockReceived
	pre := func(kind string) {
		if !started() {
			run.preClock = append(run.preClock, subject.Now().Nanoseconds())
			run.preKinds[kind]++
		}
	}
	pre("constructor")
	period := time.Duration(int64(time.Second) / int64(f))
	if _, err := subject.CreateTimer(period, func(i timer.Info) { run.ticks = append(run.ticks, i.ActualCallTime.Nanoseconds()) }); err != nil {
		t.Fatal(err)
	}
	var wall *timer.Timer
	wall, err = subject.CreateWallTimer(250*time.Microsecond, func(timer.Info) {
		pre("wall timer")
		if started() {
			wall.Cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := subject.Subscribe("/scan", "sensor_msgs/msg/LaserScan", transport.QoS{Depth: 10}, func(transport.Sample) { pre("subscription") }); err != nil {
		t.Fatal(err)
	}
	end := (startMs + 3000) * int64(time.Millisecond)
	if err := w.e.SpinUntil(t.Context(), func() bool { return started() && subject.Now().Nanoseconds() >= end }); err != nil {
		t.Fatal(err)
	}
	if len(run.ticks) > 0 {
		run.firstTick = run.ticks[0]
	}
	return run
}

// expected derives, from the formulas alone, how many ticks raise on
// now - W and how many yield time 0, for a timer at f Hz created at sim
// time 0 and a first /clock of S (all in ms; W and S are whole ms).
//
// R25: with S = 0 the ticks are at k/f, k >= 1. R23: with S > 0 the
// first /clock is a forward jump from 0; it fires the timer once at now
// = S when it passes the first deadline (S >= 1/f), and the phase is
// kept, so later ticks are the k/f > S. A tick t raises when t < W
// (R4: negative time) and yields 0 when t == W.
func expected(wMs, sMs int64, f int) (raise, zero int) {
	count := func(tMs1000 int64) { // a tick at tMs1000/(1000 f) s, scaled by f
		switch {
		case tMs1000 < wMs*int64(f):
			raise++
		case tMs1000 == wMs*int64(f):
			zero++
		}
	}
	if sMs > 0 && sMs*int64(f) >= 1000 {
		count(sMs * int64(f))
	}
	for k := int64(1); 1000*k <= wMs*int64(f); k++ {
		if 1000*k > sMs*int64(f) {
			count(1000 * k)
		}
	}
	return raise, zero
}

// TestR25R26ClosedForms checks R25 and R26 by simulation over a grid of
// windows W, timer rates f and simulator start offsets S (at, below and
// above W; W·f whole and not, such as 0.25 s × 10 Hz).
func TestR25R26ClosedForms(t *testing.T) {
	windowsMs := []int64{250, 500, 1000, 2000}
	rates := []int{1, 10, 20, 30}
	startsMs := []int64{0, 250, 500, 1000, 2000, 100_000}
	for _, f := range rates {
		for _, sMs := range startsMs {
			run := runSim(t, f, sMs)
			name := fmt.Sprintf("f=%dHz/S=%gs", f, float64(sMs)/1000)

			// R26: whatever S, code that runs before the first /clock sees 0.
			for _, now := range run.preClock {
				if now != 0 {
					t.Errorf("R26/%s: now() = %d before the first /clock, want 0", name, now)
				}
			}
			for _, kind := range []string{"constructor", "wall timer", "subscription"} {
				if run.preKinds[kind] == 0 {
					t.Errorf("R26/%s: no %s ran before the first /clock", name, kind)
				}
			}
			// R23: the first tick is at S when S >= 1/f, else at 1/f.
			wantFirst := sMs * int64(time.Millisecond)
			if sMs*int64(f) < 1000 {
				wantFirst = int64(time.Second) / int64(f)
				wantFirst = (wantFirst + int64(time.Millisecond) - 1) / int64(time.Millisecond) * int64(time.Millisecond) // the next /clock on the 1 ms grid
			}
			if run.firstTick != wantFirst {
				t.Errorf("R23/%s: first tick at %d, want %d", name, run.firstTick, wantFirst)
			}

			for _, wMs := range windowsMs {
				window := time.Duration(wMs) * time.Millisecond
				raise, zero := 0, 0
				for _, ns := range run.ticks {
					now, _ := simclock.TimeFromNanoseconds[simclock.ROS](ns)
					ago, err := now.Minus(window)
					switch {
					case errors.Is(err, simclock.ErrNegativeTime):
						raise++
					case err != nil:
						t.Fatalf("%s: Minus: %v", name, err)
					case ago.IsZero():
						zero++
					}
				}
				wantRaise, wantZero := expected(wMs, sMs, f)
				if sMs == 0 {
					// R25 as written: ceil(W·f) - 1 raise; one 0 when W·f is whole.
					wf := float64(wMs) / 1000 * float64(f)
					r25Raise, r25Zero := int(math.Ceil(wf))-1, 0
					if wf == math.Floor(wf) {
						r25Zero = 1
					}
					if wantRaise != r25Raise || wantZero != r25Zero {
						t.Fatalf("expected() disagrees with R25 at W=%v f=%d: %d, %d vs %d, %d", window, f, wantRaise, wantZero, r25Raise, r25Zero)
					}
				}
				if testing.Verbose() && (wMs == 250 && f == 10 || wMs == 1000 && f == 30) {
					t.Logf("%s/W=%v: %d ticks, %d raise, %d zero", name, window, len(run.ticks), raise, zero)
				}
				if raise != wantRaise || zero != wantZero {
					t.Errorf("R25/%s/W=%v: %d ticks raise, %d yield 0; want %d, %d", name, window, raise, zero, wantRaise, wantZero)
				}
			}
		}
	}
}
