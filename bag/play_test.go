package bag

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// fakePub records the /clock values published.
type fakePub struct{ got []int64 }

func (p *fakePub) Publish(_ context.Context, data []byte) error {
	c, err := timemsg.UnmarshalClock(data)
	if err != nil {
		return err
	}
	p.got = append(p.got, c.Clock.Nanoseconds())
	return nil
}
func (p *fakePub) ID() transport.PublisherID { return "fake" }
func (p *fakePub) MatchedSubscriptions() int { return 1 }
func (p *fakePub) Close() error              { return nil }

func TestPlayClock(t *testing.T) {
	cases := []struct {
		name  string
		opts  PlayOptions
		start int64
		end   int64
		want  []int64
	}{
		{"rate 1 at 4 Hz", PlayOptions{Hz: 4}, 10 * sec, 11 * sec,
			[]int64{10 * sec, 10*sec + 250*ms, 10*sec + 500*ms, 10*sec + 750*ms, 11 * sec}},
		{"rate 2 at 4 Hz", PlayOptions{Hz: 4, Rate: 2}, 10 * sec, 11 * sec,
			[]int64{10 * sec, 10*sec + 500*ms, 11 * sec}},
		{"end between ticks", PlayOptions{Hz: 2}, 0, 700 * ms, []int64{0, 500 * ms, 700 * ms}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := &fakePub{}
				if err := PlayClock(t.Context(), p, tc.start, tc.end, tc.opts); err != nil {
					t.Fatal(err)
				}
				if len(p.got) != len(tc.want) {
					t.Fatalf("published %v, want %v", p.got, tc.want)
				}
				for i := range p.got {
					if p.got[i] != tc.want[i] {
						t.Errorf("published %v, want %v", p.got, tc.want)
						break
					}
				}
			})
		})
	}
}

// TestPlayClockLoop: looping jumps /clock back to the start (R14, R22),
// as ros2 bag play --loop --clock does, until ctx is cancelled.
func TestPlayClockLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &fakePub{}
		ctx, cancel := context.WithTimeout(t.Context(), 2900*time.Millisecond)
		defer cancel()
		err := PlayClock(ctx, p, 5*sec, 6*sec, PlayOptions{Hz: 2, Loop: true})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want context.DeadlineExceeded", err)
		}
		want := []int64{5 * sec, 5*sec + 500*ms, 6 * sec, 5 * sec, 5*sec + 500*ms, 6 * sec}
		if len(p.got) < len(want) {
			t.Fatalf("published %v, want it to start with %v", p.got, want)
		}
		for i := range want {
			if p.got[i] != want[i] {
				t.Fatalf("published %v, want it to start with %v", p.got, want)
			}
		}
	})
}

func TestPlayClockErrors(t *testing.T) {
	for _, o := range []PlayOptions{{Rate: -1}, {Hz: -5}} {
		if err := PlayClock(context.Background(), &fakePub{}, 0, 1, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if err := PlayClock(context.Background(), &fakePub{}, 5, 1, PlayOptions{}); err == nil {
		t.Error("end before start: no error")
	}
}

func TestSpan(t *testing.T) {
	msgs := simBag(0, 2)
	for _, mode := range []string{"zstd", "noindex"} {
		p := filepath.Join(t.TempDir(), "b.mcap")
		writeBag(t, p, writerModes[mode], []genTopic{clockTopic, rangeTopic}, msgs)
		s, e, err := Span(context.Background(), []string{p})
		if err != nil || s != msgs[0].log || e != msgs[len(msgs)-1].log {
			t.Errorf("%s: Span = %d, %d, %v; want %d, %d", mode, s, e, err, msgs[0].log, msgs[len(msgs)-1].log)
		}
	}
	p := filepath.Join(t.TempDir(), "empty.mcap")
	writeBag(t, p, writerModes["chunked"], []genTopic{clockTopic}, nil)
	if _, _, err := Span(context.Background(), []string{p}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty bag: got %v, want ErrEmpty", err)
	}
}
