//go:build cgo

package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/simclock/simclock/internal/benchround"
)

var (
	benchFiles = flag.Int("lint.benchfiles", 10000, "number of files BenchmarkLint generates (half Python, half C++)")
	realFiles  = flag.Int("lint.realfiles", 3000, "number of files BenchmarkLintReal generates (shaped like autoware.universe)")
)

// benchTree writes n small ROS 2 nodes, half rclpy and half rclcpp, into
// dir in packages of 50 files, each with a mix of clean code and pitfalls.
func benchTree(tb testing.TB, dir string, n int) {
	tb.Helper()
	for i := range n {
		pkg := filepath.Join(dir, fmt.Sprintf("pkg%03d", i/50))
		var name, src string
		if i%2 == 0 {
			name = filepath.Join(pkg, pkgName(i), fmt.Sprintf("node%d.py", i))
			src = fmt.Sprintf(pyTemplate, i, i, i%3)
		} else {
			name = filepath.Join(pkg, "src", fmt.Sprintf("node%d.cpp", i))
			src = fmt.Sprintf(cppTemplate, i, i, i, i, i%3)
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			tb.Fatal(err)
		}
		if i%50 == 0 {
			if err := os.WriteFile(filepath.Join(pkg, "package.xml"), []byte("<package/>"), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

func pkgName(i int) string { return fmt.Sprintf("pkg%03d", i/50) }

const pyTemplate = `import rclpy
from rclpy.node import Node
from rclpy.duration import Duration
from rclpy.time import Time
from std_msgs.msg import Float64


class Node%d(Node):
    """Integrates a signal and looks up a transform W seconds ago."""

    def __init__(self):
        super().__init__('node_%d')
        self.window = Duration(seconds=2.0)
        self.prev = self.get_clock().now()
        self.last_seen = Time()
        self.total = 0.0
        self.sub = self.create_subscription(Float64, 'in', self.on_msg, 10)
        self.timer = self.create_timer(0.1, self.on_timer)

    def on_msg(self, msg):
        now = self.get_clock().now()
        dt = (now - self.prev).nanoseconds / 1e9
        if dt < 0:
            return
        self.total += msg.data * dt
        self.prev = now
        self.last_seen = Time.from_msg(msg.header.stamp)

    def on_timer(self):
        now = self.get_clock().now()
        if now.nanoseconds <= self.window.nanoseconds * %d:
            return
        when = now - self.window
        try:
            tf = self.buffer.lookup_transform('map', 'base_link', when)
        except Exception as e:
            self.get_logger().warn(str(e))
            return
        for i in range(10):
            self.total += tf.transform.translation.x * i
        if now - self.last_seen > Duration(seconds=5):
            self.get_logger().warn('stale')


def main():
    rclpy.init()
    rclpy.spin(Node%[1]d())
`

const cppTemplate = `#include <chrono>
#include <memory>
#include <rclcpp/rclcpp.hpp>
#include <std_msgs/msg/float64.hpp>

using namespace std::chrono_literals;

namespace demo
{
class Node%d : public rclcpp::Node
{
public:
  Node%d()
  : Node("node_%d"), window_(2, 0), prev_(this->now())
  {
    sub_ = create_subscription<std_msgs::msg::Float64>(
      "in", 10, [this](std_msgs::msg::Float64::ConstSharedPtr msg) {on_msg(*msg);});
    timer_ = create_wall_timer(100ms, [this]() {on_timer();});
  }

private:
  void on_msg(const std_msgs::msg::Float64 & msg)
  {
    const auto now = this->now();
    const double dt = (now - prev_).seconds();
    if (dt < 0.0) {
      return;
    }
    total_ += msg.data * dt;
    prev_ = now;
  }

  void on_timer()
  {
    const auto now = get_clock()->now();
    if (now.nanoseconds() == 0 || now.nanoseconds() < window_.nanoseconds()) {
      return;
    }
    const rclcpp::Time when = now - window_;
    for (int i = 0; i < 10; ++i) {
      total_ += static_cast<double>(i) * when.seconds();
    }
    RCLCPP_INFO(get_logger(), "node %d total %%f", total_);
    if (%d > 1) {
      auto t = now - rclcpp::Duration::from_seconds(0.5);
      (void)t;
    }
  }

  rclcpp::Duration window_;
  rclcpp::Time prev_;
  double total_{0.0};
  rclcpp::Subscription<std_msgs::msg::Float64>::SharedPtr sub_;
  rclcpp::TimerBase::SharedPtr timer_;
};
}  // namespace demo
`

// BenchmarkLint lints a generated tree of -lint.benchfiles small, uniform
// files (10 000 by default, 2 000 with -test.short as scripts/bench runs
// it, unless the flag is given; pass a smaller number for a quick run).
// It reports files/cpu_s and x_parse: how much more CPU time a lint takes
// than bareParse (read, and a bare tree-sitter parse of the Python and
// C++ files), alternated with it, one round per iteration
// (internal/benchround), the median of the per-round ratios. CPU time
// (of every thread of the process), because both sides run on every
// core and the machine is shared: wall time says how busy it was.
// "read" reads the same files. BenchmarkLintReal is the one shaped like
// real repositories.
func BenchmarkLint(b *testing.B) {
	dir := b.TempDir()
	n := *benchFiles
	if testing.Short() && !flagSet("lint.benchfiles") {
		n = 2000 // the same uniform files, fewer of them
	}
	benchTree(b, dir, n)
	files, err := Files([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	read := func() {
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			read()
		}
		b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("lint", func(b *testing.B) {
		var res *Result
		lint := func(int) {
			if res, err = Run(b.Context(), []string{dir}, Config{}); err != nil {
				b.Fatal(err)
			}
		}
		rounds := benchround.Run(b, benchround.Config{Once: true, CPU: true},
			benchround.Side{Run: lint},
			benchround.Side{Name: "parse", Run: func(int) { bareParse(b, files) }})
		if res.Files != len(files) || len(res.Findings) == 0 {
			b.Fatalf("linted %d files with %d findings", res.Files, len(res.Findings))
		}
		reportLint(b, rounds, len(files))
	})
}

// flagSet reports whether the command line gave the flag name.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// reportLint reports a benchround result of lint against bareParse, in
// CPU time: files/cpu_s and parse_files/cpu_s (the rounds' medians) and
// x_parse (the median of the per-round ratios of lint's CPU time to the
// parse's).
func reportLint(b *testing.B, res benchround.Result, files int) {
	r, ok := res.Ratio["parse"]
	if !ok {
		return
	}
	b.ReportMetric(float64(files)/(res.PerOp["fig"]/1e9), "files/cpu_s")
	b.ReportMetric(float64(files)/(res.PerOp["parse"]/1e9), "parse_files/cpu_s")
	b.ReportMetric(r, "x_parse")
}

// bareParse is the lint benchmarks' baseline: what lint cannot avoid,
// done with the tree-sitter library alone. It reads every file and parses
// the Python and C++ ones with go-tree-sitter's parser (then frees the
// tree), on as many goroutines as lint uses, each with its own parsers;
// it copies nothing into Go memory and runs no rule. The benchmarks
// alternate it with lint in every iteration, so a load spike lands on
// both.
func bareParse(b *testing.B, files []string) {
	work := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			parsers := map[lang]*sitter.Parser{}
			defer func() {
				for _, p := range parsers {
					p.Close()
				}
			}()
			for f := range work {
				src, err := os.ReadFile(f)
				if err != nil {
					b.Error(err)
					continue
				}
				l := langOf(f)
				g := grammars[l]
				if g == nil {
					continue // YAML, XML, launch files: lint reads them without tree-sitter
				}
				p := parsers[l]
				if p == nil {
					p = sitter.NewParser()
					if err := p.SetLanguage(g); err != nil {
						b.Error(err)
						continue
					}
					parsers[l] = p
				}
				if tree := p.Parse(src, nil); tree != nil {
					tree.Close()
				}
			}
		})
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
}

// BenchmarkLintReal lints a generated tree shaped like a large ROS 2
// repository (realTree: autoware.universe's mix of headers, sources, YAML,
// XML launch and Python files, its package sizes and its file-size
// distribution), -lint.realfiles files (3,000 by default, about
// autoware.universe's 2,947). It reports, for the whole run:
//   - files/cpu_s, files per second of CPU time (user + system) the
//     process spent, which does not depend on how busy the shared machine
//     is, and x_parse: how much more CPU time a lint takes than bareParse
//     (read, and a bare tree-sitter parse of the Python and C++ files),
//     alternated with it, one round per iteration (internal/benchround),
//     the median of the per-round ratios;
//   - peak_MB: the highest live heap seen while linting (sampled every
//     millisecond), and peak_MB_3x the same for a tree three times larger:
//     equal when memory is bounded per package, not per run.
func BenchmarkLintReal(b *testing.B) {
	dir := b.TempDir()
	realTree(b, dir, *realFiles, 1)
	files, err := Files([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	read := func() {
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			read()
		}
		b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("lint", func(b *testing.B) {
		var res *Result
		lint := func(int) {
			if res, err = Run(b.Context(), []string{dir}, Config{}); err != nil {
				b.Fatal(err)
			}
		}
		rounds := benchround.Run(b, benchround.Config{Once: true, CPU: true},
			benchround.Side{Run: lint},
			benchround.Side{Name: "parse", Run: func(int) { bareParse(b, files) }})
		if res.Files != len(files) || len(res.Findings) == 0 {
			b.Fatalf("linted %d files with %d findings", res.Files, len(res.Findings))
		}
		reportLint(b, rounds, len(files))
		if testing.Short() { // scripts/bench: no README row reads the peaks
			return
		}
		b.ReportMetric(peakHeapMB(b, dir), "peak_MB")
		big := b.TempDir()
		realTree(b, big, 3*len(files), 2)
		b.ReportMetric(peakHeapMB(b, big), "peak_MB_3x")
	})
}

// peakHeapMB lints dir once and returns the largest live heap seen, in MB,
// sampled every millisecond.
func peakHeapMB(b *testing.B, dir string) float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	if _, err := Run(b.Context(), []string{dir}, Config{}); err != nil {
		b.Fatal(err)
	}
	close(done)
	wg.Wait()
	return float64(peak) / (1 << 20)
}
