package bag

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func loopedReport(t *testing.T) *Report {
	t.Helper()
	a := simBag(100*sec, 2)
	b := modify(simBag(100*sec, 2), func(_ int, m *genMsg) bool { m.log += 2 * sec; return true })
	p := writeFile(t, bagBytes(t, writerModes["zstd"], []genTopic{clockTopic, rangeTopic}, append(a, b...)))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWriteSVG(t *testing.T) {
	rep := loopedReport(t)
	var b bytes.Buffer
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&b)
	var red, polylines int
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if se.Name.Local == "line" && a.Name.Local == "stroke" && a.Value == "#d62728" {
					red++
				}
			}
			if se.Name.Local == "polyline" {
				polylines++
			}
		}
	}
	// One backward jump (R14), marked in red; one /clock line.
	if red != 1 || polylines != 1 {
		t.Errorf("red markers %d, polylines %d; want 1 and 1", red, polylines)
	}
	var h bytes.Buffer
	if err := rep.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), "clock_backward") || !strings.Contains(h.String(), "<svg") {
		t.Error("HTML lacks the finding or the plot")
	}
}

func TestJSONLines(t *testing.T) {
	rep := loopedReport(t)
	var kinds []string
	for _, l := range rep.JSONLines() {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, m["kind"].(string))
		if m["kind"] == "summary" && (m["errors"] != 1.0 || m["complete"] != true) {
			t.Errorf("summary %s", b)
		}
		if m["kind"] == "finding" && m["code"] == "clock_backward" {
			ex := m["examples"].([]any)[0].(map[string]any)
			if ex["value_ns"] != 100e9 || ex["before_ns"] == nil {
				t.Errorf("finding %s", b)
			}
		}
	}
	want := "file clock topic topic finding finding summary"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %q, want %q", got, want)
	}
}
