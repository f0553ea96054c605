package bag

import (
	"os"
	"path/filepath"
	"testing"
)

// hazardBag is the recording behind internal/cli/testdata/bag/hazards.mcap:
// two /range messages with zero stamps before the first /clock (R26,
// R10), /clock at 100 Hz from 100 s that pauses for 1 s and then loops back
// to 100 s (R14), and system-time stamps on /range in its last second (R3).
func hazardBag() []genMsg {
	out := []genMsg{rangeMsg(wall-2*sec, 0), rangeMsg(wall-sec, 0)}
	for i := range 400 {
		log := wall + int64(i)*10*ms
		t := int64(i) * 10 * ms
		var v int64
		switch {
		case t <= sec:
			v = 100*sec + t
		case t <= 2*sec:
			v = 101 * sec // paused
		default:
			v = 100*sec + t - 2*sec // looped back to the start
		}
		out = append(out, clockMsg(log, v))
		if i%10 == 5 {
			stamp := v
			if t > 3*sec {
				stamp = log // system time
			}
			out = append(out, rangeMsg(log+ms, stamp))
		}
	}
	return out
}

// TestWriteCLITestdata regenerates the CLI's hazard bag when
// SIMCLOCK_WRITE_TESTDATA=1.
func TestWriteCLITestdata(t *testing.T) {
	if os.Getenv("SIMCLOCK_WRITE_TESTDATA") != "1" {
		t.Skip("set SIMCLOCK_WRITE_TESTDATA=1 to regenerate ../internal/cli/testdata/bag/hazards.mcap")
	}
	p := filepath.Join("..", "internal", "cli", "testdata", "bag", "hazards.mcap")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	writeBag(t, p, writerModes["zstd"], []genTopic{clockTopic, rangeTopic}, hazardBag())
}
