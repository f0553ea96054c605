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

	// damaged.mcap: a clean sim-time bag with chunk CRCs, one bit of its
	// third chunk flipped (the "a damaged bag can lie").
	wo := writerModes["chunked"]
	wo.IncludeCRC = true
	data := bagBytes(t, wo, []genTopic{clockTopic, rangeTopic}, simBag(100*sec, 4))
	off, n := nthChunk(t, data, 2)
	data[off+9+n*2/3] ^= 0x10
	writeText(t, filepath.Join(filepath.Dir(p), "damaged.mcap"), string(data))

	// sqlite3/: a Humble-style sqlite3 bag directory (no definitions) with
	// the planted hazards.
	dir := filepath.Join(filepath.Dir(p), "sqlite3")
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	msgs := hazardBag()
	topics := []genTopic{clockTopic, rangeTopic}
	writeDB3(t, filepath.Join(dir, "sqlite3_0.db3"), db3Options{}, topics, msgs)
	writeText(t, filepath.Join(dir, "metadata.yaml"), metadataYAML(5, "sqlite3", "", []string{"sqlite3_0.db3"}, [][]genMsg{msgs}, topics))
}
