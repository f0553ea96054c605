package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/simclock/simclock/rules"
)

// JSONLines writes one JSON object per line, its "kind" first, so a
// reader can dispatch on the first member: the one way every simclock
// command writes JSON lines. The values written carry no kind of their
// own.
type JSONLines struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

// NewJSONLines returns a writer of JSON lines to w.
func NewJSONLines(w io.Writer) *JSONLines {
	j := &JSONLines{w: w}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// Write writes v, which must encode as a JSON object (a struct or a map),
// as one line whose first member is "kind": kind.
func (j *JSONLines) Write(kind string, v any) error {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return fmt.Errorf("report: %s line: %w", kind, err)
	}
	body := bytes.TrimSpace(j.buf.Bytes())
	if len(body) < 2 || body[0] != '{' {
		return fmt.Errorf("report: %s line: %T does not encode as a JSON object", kind, v)
	}
	line := make([]byte, 0, len(body)+len(kind)+12)
	line = append(line, `{"kind":`...)
	line = strconv.AppendQuote(line, kind)
	if len(body) > 2 {
		line = append(line, ',')
	}
	line = append(line, body[1:]...)
	line = append(line, '\n')
	_, err := j.w.Write(line)
	return err
}

// Findings writes each finding as a "finding" line.
func (j *JSONLines) Findings(fs []rules.Finding) error {
	for _, f := range fs {
		if err := j.Write("finding", f); err != nil {
			return err
		}
	}
	return nil
}
