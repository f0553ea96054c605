package bag

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/klauspost/compress/zstd"
)

// BagReport describes a bag directory as its metadata.yaml does.
type BagReport struct {
	Dir string `json:"dir"`
	// Metadata is the parsed metadata.yaml; nil when the directory has
	// none (NoMetadata), as after a recorder crash.
	Metadata   *Metadata `json:"metadata,omitempty"`
	NoMetadata bool      `json:"no_metadata,omitempty"`
}

// DamagedChunks returns how many chunks of the bag were skipped as damaged.
func (r *Report) DamagedChunks() int {
	n := 0
	for _, f := range r.Files {
		n += len(f.Damaged)
	}
	return n
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity > fs[j].Severity })
}

// unzip decompresses one message of a bag with zstd message compression.
func (a *analysis) unzip(data []byte) ([]byte, error) {
	if a.zdec == nil {
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, err
		}
		a.zdec = z
	}
	out, err := a.zdec.DecodeAll(data, a.zbuf[:0])
	if err != nil {
		return nil, err
	}
	a.zbuf = out
	return out, nil
}

func (a *analysis) close() {
	if a.zdec != nil {
		a.zdec.Close()
	}
}

// damage adds the damaged_chunk and damaged_summary findings; it reports
// whether anything was damaged.
func (a *analysis) damage(rep *Report) bool {
	summary := a.damagedSummary(rep)
	var ex []Example
	var chunks int64
	for _, f := range rep.Files {
		rep.Skipped += f.Skipped
		for _, d := range f.Damaged {
			chunks++
			if len(ex) < a.opts.Examples {
				msgs := "an unknown number of messages"
				if d.Messages >= 0 {
					msgs = fmt.Sprintf("%d messages", d.Messages)
				}
				ex = append(ex, Example{File: filepath.Base(f.Path),
					Detail: fmt.Sprintf("chunk at byte %d: %s; %s skipped", d.Offset, d.Problem, msgs)})
			}
		}
	}
	if chunks == 0 {
		return summary
	}
	rep.Findings = append(rep.Findings, newFinding(Finding{Code: CodeDamagedChunk, Count: chunks,
		Message:  fmt.Sprintf("%d damaged chunks skipped (checksum or framing): %d messages not analysed; nothing from them is reported", chunks, rep.Skipped),
		Examples: ex}))
	return true
}

// checkMetadata compares a bag directory's metadata.yaml with what its
// files hold, showing both counts; complete says every file was read to
// its end (a cut reading has nothing to compare).
func (a *analysis) checkMetadata(rep *Report, set *bagSet, complete bool) {
	if set.noMetadata {
		rep.Findings = append(rep.Findings, newFinding(Finding{Code: CodeNoMetadata, Count: 1,
			Message: fmt.Sprintf("%s has no metadata.yaml (a recording cut short?): read its %d storage files in split order", set.dir, len(set.files))}))
	}
	m := set.meta
	if m == nil {
		return
	}
	// Storages without QoS per channel (MCAP written without it) take the
	// publisher count from metadata.yaml.
	for i := range rep.Topics {
		t := &rep.Topics[i]
		for _, tm := range m.Topics {
			if tm.Name == t.Topic && t.Publishers == 0 {
				t.Publishers = len(tm.QoS)
			}
		}
		if t.Topic == rep.Clock.topic() && t.Publishers > rep.Clock.Publishers {
			rep.Clock.Publishers = t.Publishers
		}
	}
	var ex []Example
	var n int64
	add := func(detail string) {
		n++
		if len(ex) < max(a.opts.Examples, 5) {
			ex = append(ex, Example{Detail: detail})
		}
	}
	var read int64
	for i, f := range set.files {
		if f.missing {
			add(fmt.Sprintf("%s: listed in metadata.yaml, missing from the directory", filepath.Base(f.path)))
			continue
		}
		if i >= len(rep.Files) {
			break
		}
		fi := rep.Files[i]
		got := fi.Messages + fi.Skipped
		read += got
		if f.meta != nil && fi.Error == "" && f.meta.MessageCount != got {
			add(fmt.Sprintf("%s: metadata.yaml says %d messages, the file holds %d", filepath.Base(f.path), f.meta.MessageCount, got))
		}
	}
	missing := false
	for _, f := range set.files {
		missing = missing || f.missing
	}
	if complete && !missing {
		if m.MessageCount != read {
			add(fmt.Sprintf("bag: metadata.yaml says %d messages, the files hold %d", m.MessageCount, read))
		}
		if rep.Skipped == 0 {
			byTopic := map[string]int64{}
			for _, t := range rep.Topics {
				byTopic[t.Topic] = t.Messages
			}
			for _, t := range m.Topics {
				if got := byTopic[t.Name]; got != t.MessageCount {
					add(fmt.Sprintf("topic %s: metadata.yaml says %d messages, the files hold %d", t.Name, t.MessageCount, got))
				}
			}
		}
	}
	if n > 0 {
		rep.Findings = append(rep.Findings, newFinding(Finding{Code: CodeMetadata, Count: n,
			Message:  fmt.Sprintf("metadata.yaml disagrees with the bag's files (%s): the recording may be incomplete or its files mixed up", filepath.Join(set.dir, "metadata.yaml")),
			Examples: ex}))
	}
}

// damagedSummary adds the damaged_summary finding: files whose MCAP
// summary was not trusted, and were read from their data section.
func (a *analysis) damagedSummary(rep *Report) bool {
	var ex []Example
	var n int64
	for _, f := range rep.Files {
		if f.SummaryDamage != "" {
			n++
			if len(ex) < a.opts.Examples {
				ex = append(ex, Example{File: filepath.Base(f.Path), Detail: f.SummaryDamage})
			}
		}
	}
	if n == 0 {
		return false
	}
	rep.Findings = append(rep.Findings, newFinding(Finding{Code: CodeDamagedSummary, Count: n,
		Message:  fmt.Sprintf("%d files have a damaged MCAP summary section: read from their data section instead, which the report covers", n),
		Examples: ex}))
	return true
}
