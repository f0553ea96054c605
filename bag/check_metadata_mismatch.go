package bag

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/simclock/simclock/rules"
)

// CodeMetadata: metadata.yaml disagrees with the files of its bag directory.
const CodeMetadata rules.Code = "metadata_mismatch"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeMetadata, Severity: rules.Error,
			Title: "metadata.yaml disagrees with the storage files (a listed file missing, other message counts)",
			Fix:   "find the missing file, or run ros2 bag reindex DIR to rewrite metadata.yaml from the files"},
		Detect: metadataMismatch,
	}, describeDetail)
}

// metadataMismatch compares a bag directory's metadata.yaml with what its
// files hold, showing both counts, when every file was read to its end (a
// cut reading has nothing to compare).
func metadataMismatch(t *tally) []rules.Finding {
	m := t.set.meta
	if m == nil {
		return nil
	}
	var ex []rules.Example
	var n int64
	add := func(detail string) {
		n++
		if len(ex) < max(t.opts.Examples, 5) {
			ex = append(ex, rules.Example{Detail: detail})
		}
	}
	var read int64
	for i, f := range t.set.files {
		if f.missing {
			add(fmt.Sprintf("%s: listed in metadata.yaml, missing from the directory", fileName(f.path)))
			continue
		}
		if i >= len(t.files) {
			break
		}
		fi := t.files[i]
		got := fi.Messages + fi.Skipped
		read += got
		if f.meta != nil && fi.Error == "" && f.meta.MessageCount != got {
			add(fmt.Sprintf("%s: metadata.yaml says %d messages, the file holds %d", fileName(f.path), f.meta.MessageCount, got))
		}
	}
	missing := slices.ContainsFunc(t.set.files, func(f bagFile) bool { return f.missing })
	if t.readErr == nil && !missing {
		if m.MessageCount != read {
			add(fmt.Sprintf("bag: metadata.yaml says %d messages, the files hold %d", m.MessageCount, read))
		}
		if t.skippedMessages() == 0 {
			for _, tm := range m.Topics {
				var got int64
				if tt := t.topics[tm.Name]; tt != nil {
					got = tt.rep.Messages
				}
				if got != tm.MessageCount {
					add(fmt.Sprintf("topic %s: metadata.yaml says %d messages, the files hold %d", tm.Name, tm.MessageCount, got))
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	return []rules.Finding{{Count: n, Examples: ex,
		Message: fmt.Sprintf("metadata.yaml disagrees with the bag's files (%s): the recording may be incomplete or its files mixed up", filepath.Join(t.set.dir, "metadata.yaml"))}}
}
