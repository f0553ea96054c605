package bag

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
)

// A /clock verdict: what a reader made of one message.
type clockVerdict struct {
	kind  string // "valid", "malformed" or "not_normalized"
	value int64  // the clock after it (a valid message sets it, others leave it)
}

// TestOneClockDecoder feeds the same /clock payloads, after a valid
// 1 s, to every reader simclock has: monitor's and doctor's analyser
// (clockstream.Decode into an Analyzer), a node's time source
// (timesource.Handle) and bag inspect. All three must agree, message by
// message, with the node's rules (timemsg.DecodeClock): once, a sec of -1
// was a valid -1 s to the analyser and malformed to the node.
func TestOneClockDecoder(t *testing.T) {
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	const first = int64(time.Second)
	cases := []struct {
		name string
		data []byte
		want clockVerdict
	}{
		{"2.5 s", clock(2, 500_000_000), clockVerdict{"valid", 2_500_000_000}},
		{"0", clock(0, 0), clockVerdict{"valid", 0}},
		{"largest", clock(math.MaxInt32, 999_999_999), clockVerdict{"valid", math.MaxInt32*1e9 + 999_999_999}},
		{"big endian 7 s", []byte{0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0}, clockVerdict{"valid", 7e9}},
		{"padded", append(clock(3, 0), 0, 0, 0, 0), clockVerdict{"valid", 3e9}},
		{"sec -1", clock(-1, 0), clockVerdict{"malformed", first}},
		{"sec -1, nanosec 5e8", clock(-1, 500_000_000), clockVerdict{"malformed", first}},
		{"sec -1, nanosec 1e9", clock(-1, 1e9), clockVerdict{"malformed", first}},
		{"most negative", clock(math.MinInt32, 0), clockVerdict{"malformed", first}},
		{"nanosec 1e9", clock(2, 1e9), clockVerdict{"not_normalized", first}},
		{"nanosec max", clock(0, math.MaxUint32), clockVerdict{"not_normalized", first}},
		{"short", clock(2, 0)[:11], clockVerdict{"malformed", first}},
		{"header only", clock(2, 0)[:4], clockVerdict{"malformed", first}},
		{"PL_CDR", []byte{0, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, clockVerdict{"malformed", first}},
		{"CDR2", []byte{0, 7, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, clockVerdict{"malformed", first}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The rule itself.
			ns, err := timemsg.DecodeClock(tc.data)
			var rule clockVerdict
			switch {
			case err == nil:
				rule = clockVerdict{"valid", ns}
			case errors.Is(err, timemsg.ErrNotNormalized):
				rule = clockVerdict{"not_normalized", first}
			default:
				rule = clockVerdict{"malformed", first}
			}
			got := map[string]clockVerdict{
				"timemsg.DecodeClock":       rule,
				"clockstream (monitor)":     analyserVerdict(tc.data),
				"timesource (a node)":       nodeVerdict(t, tc.data),
				"bag inspect (a recording)": bagVerdict(t, tc.data),
			}
			for reader, v := range got {
				if v != tc.want {
					t.Errorf("%s: % x is %+v, want %+v", reader, tc.data, v, tc.want)
				}
			}
		})
	}
}

func analyserVerdict(data []byte) clockVerdict {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	a.Observe(clockstream.Decode(0, "p", timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1}})))
	a.Observe(clockstream.Decode(10*time.Millisecond, "p", data))
	tot := a.Totals(10 * time.Millisecond)
	switch {
	case tot.Malformed == 1 && tot.NotNormalized == 0:
		return clockVerdict{"malformed", tot.Last}
	case tot.NotNormalized == 1 && tot.Malformed == 0:
		return clockVerdict{"not_normalized", tot.Last}
	case tot.Malformed == 0 && tot.NotNormalized == 0:
		return clockVerdict{"valid", tot.Last}
	}
	return clockVerdict{"counted twice", tot.Last}
}

func nodeVerdict(t *testing.T, data []byte) clockVerdict {
	ts := timesource.New(nil, nil, timesource.Options{})
	ts.Handle(transport.Sample{Data: timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1}}), Publisher: "p"})
	ts.Handle(transport.Sample{Data: data, Publisher: "p"})
	st := ts.Stats()
	v := ts.Last().Nanoseconds()
	switch {
	case st.Received != 2:
		t.Fatalf("time source received %d", st.Received)
	case st.Malformed == 0 && st.Applied == 2:
		return clockVerdict{"valid", v}
	case st.Malformed == 1 && errors.Is(st.LastMalformed, timemsg.ErrNotNormalized):
		return clockVerdict{"not_normalized", v}
	case st.Malformed == 1:
		return clockVerdict{"malformed", v}
	}
	return clockVerdict{"counted twice", v}
}

func bagVerdict(t *testing.T, data []byte) clockVerdict {
	msgs := []genMsg{clockMsg(wall, int64(time.Second)), {timemsg.ClockTopic, wall + 10*ms, data}}
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic}, msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clock.Messages != 2 {
		t.Fatalf("bag counted %d /clock messages", rep.Clock.Messages)
	}
	var decodeErrs, notNorm int64
	for _, tp := range rep.Topics {
		if tp.Topic == timemsg.ClockTopic {
			decodeErrs += tp.DecodeErrs
		}
	}
	for _, f := range rep.Findings {
		if f.Code == CodeNotNormalized {
			notNorm += f.Count
		}
	}
	switch {
	case decodeErrs == 1 && notNorm == 0:
		return clockVerdict{"malformed", rep.Clock.LastNS}
	case notNorm == 1 && decodeErrs == 0:
		return clockVerdict{"not_normalized", rep.Clock.LastNS}
	case notNorm == 0 && decodeErrs == 0:
		return clockVerdict{"valid", rep.Clock.LastNS}
	}
	return clockVerdict{"counted twice", rep.Clock.LastNS}
}
