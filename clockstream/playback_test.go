package clockstream_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
)

// play runs a Playback as a Player does (every tick Sent), toggling the
// pause at the wall times given, and returns its ticks as
// "wall→sim[event]" (skipped ticks as "wall~").
func play(t *testing.T, cfg clockstream.PlaybackConfig, toggles ...time.Duration) []string {
	t.Helper()
	p, err := clockstream.NewPlayback(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for len(out) < 200 && !(cfg.Loop && len(out) == 7) {
		tk, ok := p.Next()
		if !ok {
			return out
		}
		if again, _ := p.Next(); again != tk {
			t.Fatalf("Next before Sent changed its answer: %v then %v", tk, again)
		}
		if len(toggles) > 0 && tk.Wall > toggles[0] {
			// The key comes before this tick: the player rearms.
			p.Toggle(toggles[0])
			toggles = toggles[1:]
			continue
		}
		p.Sent(tk)
		s := fmt.Sprintf("%v→%v", tk.Wall, tk.Sim)
		if tk.Skip {
			s = fmt.Sprintf("%v~", tk.Wall)
		}
		if tk.Event != clockstream.TickNone {
			s += "[" + string(tk.Event) + "]"
		}
		out = append(out, s)
	}
	if !cfg.Loop {
		t.Fatalf("no end: %v", out)
	}
	return out
}

func check(t *testing.T, got []string, want string) {
	t.Helper()
	if g := strings.Join(got, " "); g != want {
		t.Errorf("ticks\n got: %s\nwant: %s", g, want)
	}
}

// The clock timer alone: the player's clock every period, ending on the
// last message (Stop), at any rate.
func TestPlaybackClockTimer(t *testing.T) {
	cfg := clockstream.PlaybackConfig{Start: 100 * time.Second, Stop: 100*time.Second + 300*ms, Rate: 1, Period: 100 * ms}
	check(t, play(t, cfg), "0s→1m40s[start] 100ms→1m40.1s 200ms→1m40.2s 300ms→1m40.3s")
	cfg.Rate = 2
	check(t, play(t, cfg), "0s→1m40s[start] 100ms→1m40.2s 150ms→1m40.3s")
	cfg.Delay = time.Second
	check(t, play(t, cfg), "1s→1m40s[start] 1.1s→1m40.2s 1.15s→1m40.3s")
}

// --clock-topics: before each trigger message, /clock carries its log
// time, and nothing else is published; the run ends, silently, when the
// clock reaches the last message.
func TestPlaybackTriggers(t *testing.T) {
	cfg := clockstream.PlaybackConfig{Start: 10 * time.Second, Stop: 11 * time.Second, Rate: 1,
		Triggers: []time.Duration{9 * time.Second, 10200 * ms, 10500 * ms, 10500 * ms, 10800 * ms, 12 * time.Second}}
	check(t, play(t, cfg), "200ms→10.2s[start] 500ms→10.5s 500ms→10.5s 800ms→10.8s 1s~")
	// With the clock timer too, merged in wall order (a timer tick at the
	// wall time of a trigger would repeat its value: it is left out).
	cfg.Period = 400 * ms
	check(t, play(t, cfg), "0s→10s[start] 200ms→10.2s 400ms→10.4s 500ms→10.5s 500ms→10.5s 800ms→10.8s 1s→11s")
}

// --loop: /clock jumps back to Start after the last message, after the
// delay, every time.
func TestPlaybackLoop(t *testing.T) {
	cfg := clockstream.PlaybackConfig{Start: 10 * time.Second, Stop: 10200 * ms, Rate: 1, Period: 100 * ms, Loop: true}
	got := play(t, cfg)
	check(t, got, "0s→10s[start] 100ms→10.1s 200ms→10.2s 200ms→10s[loop] 300ms→10.1s 400ms→10.2s 400ms→10s[loop]")
}

// Space pauses and resumes: the clock timer keeps publishing the frozen
// value, triggers wait, and the clock goes on from where it stood.
func TestPlaybackPause(t *testing.T) {
	cfg := clockstream.PlaybackConfig{Start: 10 * time.Second, Stop: 11 * time.Second, Rate: 1, Period: 200 * ms,
		Triggers: []time.Duration{10500 * ms}}
	check(t, play(t, cfg, 300*ms, 900*ms),
		"0s→10s[start] 200ms→10.2s 400ms→10.3s[pause] 600ms→10.3s 800ms→10.3s 1s→10.4s[resume] 1.1s→10.5s 1.2s→10.6s 1.4s→10.8s 1.6s→11s")
	// --start-paused: nothing advances until the first space.
	cfg.StartPaused = true
	check(t, play(t, cfg, 500*ms),
		"0s→10s[start] 200ms→10s 400ms→10s 600ms→10.1s[resume] 800ms→10.3s 1s→10.5s 1.2s→10.7s 1.4s→10.9s 1.5s→11s")
	// Without a clock timer a paused playback publishes nothing and waits.
	cfg.Period = 0
	check(t, play(t, cfg, 5*time.Second), "5.5s→10.5s[start] 6s~")
}

func TestPlaybackRefusesNonsense(t *testing.T) {
	for _, cfg := range []clockstream.PlaybackConfig{
		{Start: 2, Stop: 1, Rate: 1},
		{Stop: 1, Rate: 0},
		{Stop: 1, Rate: -1},
		{Stop: 1, Rate: 1, Period: -1},
	} {
		if _, err := clockstream.NewPlayback(cfg); err == nil {
			t.Errorf("NewPlayback(%+v) accepted", cfg)
		}
	}
}
