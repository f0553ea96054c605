package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeDamagedChunk: a chunk failed its integrity checks and was skipped: damage, never a hazard.
const CodeDamagedChunk rules.Code = "damaged_chunk"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeDamagedChunk, Severity: rules.Error,
			Title: "a chunk whose CRC or lz4 checksum does not match, or that does not decode: its messages are skipped",
			Fix:   "re-copy the bag from its source; the damaged chunks' messages are lost"},
		Detect: damagedChunks,
	}, describeDetail)
}

// damagedChunks: one finding for every chunk skipped, with the first few
// as examples.
func damagedChunks(t *tally) []rules.Finding {
	var ex []rules.Example
	var chunks int64
	for _, f := range t.files {
		for _, d := range f.Damaged {
			chunks++
			if len(ex) < t.opts.Examples {
				msgs := "an unknown number of messages"
				if d.Messages >= 0 {
					msgs = fmt.Sprintf("%d messages", d.Messages)
				}
				ex = append(ex, rules.Example{File: fileName(f.Path),
					Detail: fmt.Sprintf("chunk at byte %d: %s; %s skipped", d.Offset, d.Problem, msgs)})
			}
		}
	}
	if chunks == 0 {
		return nil
	}
	return []rules.Finding{{Count: chunks, Examples: ex,
		Message: fmt.Sprintf("%d damaged chunks skipped (checksum or framing): %d messages not analysed; nothing from them is reported", chunks, t.skippedMessages())}}
}
