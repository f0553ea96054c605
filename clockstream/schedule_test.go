package clockstream_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
)

const s = time.Second

// ticks returns the first n ticks of cfg as "wall:sim[:event]" strings,
// in milliseconds.
func ticks(t *testing.T, cfg clockstream.ScheduleConfig, n int) []string {
	t.Helper()
	sch, err := clockstream.NewSchedule(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var out []string
	for range n {
		tk, ok := sch.Next()
		if !ok {
			out = append(out, "end")
			break
		}
		str := fmt.Sprintf("%d:%d", tk.Wall/ms, tk.Sim/ms)
		if tk.Event != clockstream.TickNone {
			str += ":" + string(tk.Event)
		}
		out = append(out, str)
	}
	return out
}

func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  clockstream.ScheduleConfig
		n    int
		want []string
	}{
		{"rtf1", clockstream.ScheduleConfig{Start: 100 * s, Period: 100 * ms, Step: 100 * ms}, 3,
			[]string{"0:100000:start", "100:100100", "200:100200"}},
		{"rtf2_preclock", clockstream.ScheduleConfig{Period: 10 * ms, Step: 20 * ms, PreClock: 2 * s}, 3,
			[]string{"2000:0:start", "2010:20", "2020:40"}},
		{"pause_resume_constant_value_while_paused", clockstream.ScheduleConfig{Period: 100 * ms, Step: 100 * ms, Pause: true, PauseAt: 200 * ms, ResumeAfter: 300 * ms}, 7,
			[]string{"0:0:start", "100:100", "200:200:pause", "300:200", "400:200", "500:300:resume", "600:400"}},
		{"pause_forever", clockstream.ScheduleConfig{Period: 100 * ms, Step: 100 * ms, Pause: true, PauseAt: 0}, 3,
			[]string{"0:0:start", "100:0", "200:0"}},
		{"jump_backward", clockstream.ScheduleConfig{Start: 10 * s, Period: 1 * s, Step: 1 * s, Jump: true, JumpAt: 11 * s, JumpTo: 5 * s}, 5,
			[]string{"0:10000:start", "1000:11000", "2000:5000:jump", "3000:6000", "4000:7000"}},
		{"jump_forward_once", clockstream.ScheduleConfig{Period: 1 * s, Step: 1 * s, Jump: true, JumpAt: 1 * s, JumpTo: 100 * s}, 4,
			[]string{"0:0:start", "1000:1000", "2000:100000:jump", "3000:101000"}},
		{"until_ends", clockstream.ScheduleConfig{Period: 1 * s, Step: 1 * s, HasUntil: true, Until: 2 * s}, 5,
			[]string{"0:0:start", "1000:1000", "2000:2000", "end"}},
		{"loop_restarts_from_start", clockstream.ScheduleConfig{Start: 5 * s, Period: 1 * s, Step: 1 * s, HasUntil: true, Until: 6 * s, Loop: true}, 5,
			[]string{"0:5000:start", "1000:6000", "2000:5000:loop", "3000:6000", "4000:5000:loop"}},
		{"loop_rearms_jump", clockstream.ScheduleConfig{Period: 1 * s, Step: 1 * s, Jump: true, JumpAt: 1 * s, JumpTo: 3 * s, HasUntil: true, Until: 3 * s, Loop: true}, 7,
			[]string{"0:0:start", "1000:1000", "2000:3000:jump", "3000:0:loop", "4000:1000", "5000:3000:jump", "6000:0:loop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ticks(t, tc.cfg, tc.n); !slices.Equal(got, tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestNewScheduleRejects(t *testing.T) {
	for _, tc := range []struct {
		cfg  clockstream.ScheduleConfig
		want error
	}{
		{clockstream.ScheduleConfig{}, clockstream.ErrPeriod},
		{clockstream.ScheduleConfig{Period: s, Step: -1}, clockstream.ErrStep},
		{clockstream.ScheduleConfig{Period: s, Start: -1}, clockstream.ErrNegative},
		{clockstream.ScheduleConfig{Period: s, Loop: true}, clockstream.ErrLoop},
		{clockstream.ScheduleConfig{Period: s, Loop: true, HasUntil: true, Start: 5 * s, Until: 5 * s}, clockstream.ErrLoop},
	} {
		if _, err := clockstream.NewSchedule(tc.cfg); !errors.Is(err, tc.want) {
			t.Errorf("New(%+v) = %v, want %v", tc.cfg, err, tc.want)
		}
	}
}

func TestScheduleRTF(t *testing.T) {
	sch, err := clockstream.NewSchedule(clockstream.ScheduleConfig{Period: 10 * ms, Step: 25 * ms})
	if err != nil {
		t.Fatal(err)
	}
	if got := sch.RTF(); got != 2.5 {
		t.Errorf("RTF = %v, want 2.5", got)
	}
}

func ExampleSchedule() {
	sch, _ := clockstream.NewSchedule(clockstream.ScheduleConfig{Start: 100 * time.Second, Period: 500 * time.Millisecond,
		Step: time.Second, HasUntil: true, Until: 101 * time.Second, Loop: true})
	for range 4 {
		tk, _ := sch.Next()
		fmt.Printf("at %v publish %v (%s)\n", tk.Wall, tk.Sim, tk.Event)
	}
	// Output:
	// at 0s publish 1m40s (start)
	// at 500ms publish 1m41s ()
	// at 1s publish 1m40s (loop)
	// at 1.5s publish 1m41s ()
}

// Drop and Jitter are faults on top of the schedule: sim times are those
// of the fault-free run, send times stay in order within ±Jitter, about
// Drop of the messages are marked lost, and one seed gives one run.
func TestFaults(t *testing.T) {
	base := clockstream.ScheduleConfig{Start: 5 * time.Second, Period: 10 * time.Millisecond, Step: 20 * time.Millisecond}
	faulty := base
	faulty.Drop, faulty.Jitter, faulty.Seed = 0.3, 4*time.Millisecond, 42
	run := func(cfg clockstream.ScheduleConfig) []clockstream.Tick {
		s, err := clockstream.NewSchedule(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var ticks []clockstream.Tick
		for range 10000 {
			tk, ok := s.Next()
			if !ok {
				t.Fatal("schedule ended")
			}
			ticks = append(ticks, tk)
		}
		return ticks
	}
	clean, a, b := run(base), run(faulty), run(faulty)
	dropped := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("tick %d differs between two runs with one seed: %+v vs %+v", i, a[i], b[i])
		}
		if a[i].Sim != clean[i].Sim {
			t.Fatalf("tick %d: sim %v, fault-free %v", i, a[i].Sim, clean[i].Sim)
		}
		if d := a[i].Wall - clean[i].Wall; d > faulty.Jitter || (d < -faulty.Jitter && a[i].Wall != a[max(i-1, 0)].Wall) {
			t.Fatalf("tick %d: wall moved by %v, jitter %v", i, d, faulty.Jitter)
		}
		if i > 0 && a[i].Wall < a[i-1].Wall {
			t.Fatalf("tick %d sent before tick %d", i, i-1)
		}
		if a[i].Dropped {
			dropped++
		}
	}
	if a[0].Dropped {
		t.Error("the first message was dropped")
	}
	if dropped < 2700 || dropped > 3300 {
		t.Errorf("%d of 10000 dropped, want about 3000", dropped)
	}
	if _, err := clockstream.NewSchedule(clockstream.ScheduleConfig{Period: time.Millisecond, Drop: 1}); err == nil {
		t.Error("drop 1 accepted")
	}
}

// EndAtUntil lands the last message on Until, as ros2 bag play ends on the
// bag's last log time; Every publishes one tick in Every, the first and
// the last always (the experiment's simulator).
func TestScheduleEndAtUntilAndEvery(t *testing.T) {
	cfg := clockstream.ScheduleConfig{Start: 10 * s, Period: 100 * ms, Step: 300 * ms, HasUntil: true, Until: 11 * s, EndAtUntil: true}
	got := ticks(t, cfg, 10)
	want := []string{"0:10000:start", "100:10300", "200:10600", "300:10900", "400:11000", "end"}
	if !slices.Equal(got, want) {
		t.Errorf("EndAtUntil: got %q, want %q", got, want)
	}
	cfg.Loop = true
	if got := ticks(t, cfg, 7); got[4] != "400:11000" || got[5] != "500:10000:loop" {
		t.Errorf("EndAtUntil with Loop: got %q", got)
	}
	cfg = clockstream.ScheduleConfig{Period: 10 * ms, Step: 10 * ms, HasUntil: true, Until: 95 * ms, EndAtUntil: true, Every: 3}
	got = ticks(t, cfg, 10)
	want = []string{"0:0:start", "30:30", "60:60", "90:90", "100:95", "end"}
	if !slices.Equal(got, want) {
		t.Errorf("Every 3: got %q, want %q", got, want)
	}
}
