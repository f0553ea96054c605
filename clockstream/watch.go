package clockstream

import (
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// WatchOptions tune a Watcher.
type WatchOptions struct {
	Config Config
	// Interval, with OnReport, reports every Interval of steady time.
	Interval time.Duration
	OnReport func(Report)
	// Duration ends the watch after this much steady time; 0 watches
	// until the executor stops spinning.
	Duration time.Duration
}

// A Watcher analyses a live /clock subscription on an executor: each
// sample is stamped with the executor's steady clock when the executor
// takes it, so on a virtual-time executor the stream is deterministic.
type Watcher struct {
	exec   *executor.Executor
	sub    transport.Subscription
	opts   WatchOptions
	a      *Analyzer
	q      *timer.Queue
	origin int64
	remove func()
	timers []*timer.Timer
	done   bool
}

// NewWatcher starts watching sub, driven by exec.
func NewWatcher(exec *executor.Executor, sub transport.Subscription, opts WatchOptions) (*Watcher, error) {
	w := &Watcher{exec: exec, sub: sub, opts: opts}
	w.origin = exec.Steady().Now().Nanoseconds()
	w.a = NewAnalyzer(opts.Config, 0)
	w.q = timer.NewQueue(exec.Steady())
	exec.AddQueue(w.q)
	if opts.Interval > 0 && opts.OnReport != nil {
		t, err := w.q.New(opts.Interval, func(timer.Info) {
			opts.OnReport(w.a.Report(w.since(), sub.MatchedPublishers()))
		}, true)
		if err != nil {
			return nil, err
		}
		w.timers = append(w.timers, t)
	}
	if opts.Duration > 0 {
		t, err := w.q.New(opts.Duration, func(timer.Info) { w.Stop() }, true)
		if err != nil {
			return nil, err
		}
		w.timers = append(w.timers, t)
	}
	w.remove = exec.Subscribe(sub, func(s transport.Sample) {
		if !w.done {
			w.a.Observe(Decode(w.since(), s.Publisher, s.Data))
		}
	})
	return w, nil
}

func (w *Watcher) since() time.Duration {
	return time.Duration(w.exec.Steady().Now().Nanoseconds() - w.origin)
}

// Stop ends the watch.
func (w *Watcher) Stop() {
	w.done = true
	for _, t := range w.timers {
		t.Cancel()
	}
}

// Done reports whether the watch ended (Duration passed or Stop).
func (w *Watcher) Done() bool { return w.done }

// Totals returns the stream's totals so far, with the publishers the
// subscription matches now among its publishers.
func (w *Watcher) Totals() Totals {
	t := w.a.Totals(w.since())
	if matched := w.sub.MatchedPublishers(); len(matched) > 0 {
		t.Publishers = w.a.publisherStats(true, w.since(), t.Elapsed, matched)
		if len(t.Publishers) > 1 {
			t.RTF = nil
		}
	}
	return t
}

// Close stops the watch and takes it off the executor.
func (w *Watcher) Close() {
	w.Stop()
	w.remove()
	w.exec.RemoveQueue(w.q)
	w.q.Close()
}
