package clockstream_test

import (
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/benchround"
	"github.com/simclock/simclock/timemsg"
)

// BenchmarkDecode is the baseline: decoding one /clock payload.
func BenchmarkDecode(b *testing.B) {
	data := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1_700_000_000, Nanosec: 5}})
	for b.Loop() {
		clockstream.Decode(0, "p", data)
	}
}

// BenchmarkAnalyzerObserve decodes and analyses one message of a steady
// 100 Hz stream: what monitor, doctor and bag pay per /clock message.
func BenchmarkAnalyzerObserve(b *testing.B) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	var payloads [][]byte
	for i := range 1000 {
		payloads = append(payloads, clock(time.Duration(i)*10*time.Millisecond))
	}
	i := 0
	for b.Loop() {
		a.Observe(clockstream.Decode(time.Duration(i)*10*time.Millisecond, "p", payloads[i%len(payloads)]))
		i++
	}
}

// BenchmarkAnalyzerInterleaved is the README's row: decoding and
// analysing one message of a steady 100 Hz stream (as
// BenchmarkAnalyzerObserve) against decoding it alone (as
// BenchmarkDecode), alternately in 2 ms segments (internal/benchround;
// -benchtime Nx is N rounds), each segment measured in its thread's CPU
// time (benchround.Config.ThreadCPU). ratio_decode is the median over
// the rounds of the first's time per message over the second's.
func BenchmarkAnalyzerInterleaved(b *testing.B) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	var payloads [][]byte
	for i := range 1000 {
		payloads = append(payloads, clock(time.Duration(i)*10*time.Millisecond))
	}
	i, j := 0, 0
	benchround.Run(b, benchround.Config{ThreadCPU: true},
		benchround.Side{Run: func(n int) {
			for range n {
				a.Observe(clockstream.Decode(time.Duration(i)*10*time.Millisecond, "p", payloads[i%len(payloads)]))
				i++
			}
		}},
		benchround.Side{Name: "decode", Run: func(n int) {
			for range n {
				sinkSample = clockstream.Decode(time.Duration(j)*10*time.Millisecond, "p", payloads[j%len(payloads)])
				j++
			}
		}})
}

// sinkSample keeps the baseline's decode alive.
var sinkSample clockstream.Sample
