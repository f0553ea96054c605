package bag

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/rules"
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

// The timeline's y axis says what it shows, each series has its own
// colour and marker in the legend, and hazard labels never overlap: with
// many findings at one instant, the labels that find no room are listed
// under the plot.
func TestWriteSVGLabelsLegendAxis(t *testing.T) {
	const s = int64(1e9)
	rep := &Report{StartLogNS: 100 * s, EndLogNS: 110 * s}
	rep.Series = []Series{
		{Topic: "/clock", Field: "clock", Points: []Point{{100 * s, 50 * s}, {110 * s, 60 * s}}},
		{Topic: "/scan", Field: "header.stamp", Points: []Point{{101 * s, 51 * s}, {109 * s, 59 * s}}},
		{Topic: "/odom", Field: "header.stamp", Points: []Point{{102 * s, 52 * s}}},
	}
	for i := range 30 {
		rep.Findings = append(rep.Findings, rules.Finding{Severity: SeverityWarning, Code: rules.Code(fmt.Sprintf("code_number_%02d", i)),
			Examples: []rules.Example{{LogNS: 105*s + int64(i%3)*s/100}}})
	}
	var b bytes.Buffer
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"/clock value, sim time (s)", "/scan header.stamp", "/odom header.stamp", "<rect x=", "<circle", "also marked (no room for a label): "} {
		if !strings.Contains(out, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// Collect the label boxes (vertical text: x..x+11, y..y+6 per char) and check no two overlap.
	type box struct{ x0, x1, y0, y1 float64 }
	var boxes []box
	for _, line := range strings.Split(out, "\n") {
		var x, y float64
		var rest string
		if n, _ := fmt.Sscanf(line, `<text transform="translate(%f %f) rotate(90)" %s`, &x, &y, &rest); n == 3 {
			code := line[strings.Index(line, ">")+1 : strings.LastIndex(line, "</text>")]
			boxes = append(boxes, box{x - 2, x + 9, y, y + 6*float64(len(code))})
		}
	}
	if len(boxes) < 3 {
		t.Fatalf("only %d labels placed", len(boxes))
	}
	for i := range boxes {
		for j := range i {
			a, c := boxes[i], boxes[j]
			if a.x0 < c.x1 && c.x0 < a.x1 && a.y0 < c.y1 && c.y0 < a.y1 {
				t.Errorf("labels overlap: %+v and %+v", a, c)
			}
		}
	}
}

// Labels are drawn over every marker line (with a white halo), so a line
// drawn later never crosses one; the window W is a labelled horizontal
// line when it is on the y scale.
func TestWriteSVGLabelsOnTopAndWindow(t *testing.T) {
	const s = int64(1e9)
	rep := &Report{StartLogNS: 100 * s, EndLogNS: 110 * s, Window: 55 * time.Second}
	rep.Series = []Series{{Topic: "/clock", Field: "clock", Points: []Point{{100 * s, 50 * s}, {110 * s, 60 * s}}}}
	for i := range 3 {
		rep.Findings = append(rep.Findings, rules.Finding{Severity: SeverityError, Code: rules.Code(fmt.Sprintf("code_%d", i)),
			Examples: []rules.Example{{LogNS: 105*s + int64(i)*s/50}, {LogNS: 105*s + int64(i)*s/50 + s/100}}})
	}
	var b bytes.Buffer
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lastLine := strings.LastIndex(out, `stroke-dasharray="4 3"`)
	firstLabel := strings.Index(out, `rotate(90)`)
	if firstLabel < 0 || lastLine > firstLabel {
		t.Errorf("a marker line is drawn after a label (line at %d, first label at %d)", lastLine, firstLabel)
	}
	if !strings.Contains(out, `paint-order="stroke"`) {
		t.Error("labels have no halo")
	}
	if !strings.Contains(out, ">W = 55 s</text>") {
		t.Error("no window line")
	}
	if strings.Contains(out, "/clock clock") {
		t.Error(`the /clock series is named "/clock clock"`)
	}
}

// The HTML report carries what the text report does: the files with their
// storage and compression, the /clock summary, the topics, and every
// finding with its examples and links to its rules.
func TestWriteHTMLCarriesTheReport(t *testing.T) {
	rep, err := Inspect(context.Background(), []string{"../internal/cli/testdata/bag/hazards.mcap"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<td>mcap</td>", "zstd", // the file
		"RTF 0.749", "1 pauses", // the /clock line
		"<td>/range</td><td>sensor_msgs/msg/Range</td>", "header.stamp ×42", // the topics
		`href="` + rules.R14.URL() + `"`, // the rules
		"at log +4.010 s (message 201): 100.010000000 after 101.000000000 — back by 0.990 s", // an example
		"<svg",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// Tick labels print as many decimals as their step needs (a 0.1 step
// gave 0.6000000000000001), and Unix-epoch values count from a round base
// the axis title names, so no label is cut at the plot's edge.
func TestPlotTickLabels(t *testing.T) {
	ticks := niceTicks(0, 1)
	labels := tickLabels(ticks, tickBase(ticks))
	if got := strings.Join(labels, " "); got != "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0" && got != "0.0 0.2 0.4 0.6 0.8 1.0" {
		t.Errorf("labels %q", got)
	}
	ticks = niceTicks(1700000000.2, 1700000004.9)
	base := tickBase(ticks)
	if base != 1700000000 {
		t.Errorf("base %v", base)
	}
	if got := strings.Join(tickLabels(ticks, base), " "); got != "+1 +2 +3 +4" {
		t.Errorf("epoch labels %q", got)
	}
	rep, err := Inspect(context.Background(), []string{writeFile(t, bagBytes(t, writerModes["zstd"], []genTopic{clockTopic, rangeTopic},
		simBag(1700000000*sec, 2)))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if !strings.Contains(svg, "/clock value, sim time (s), from 1700000000 s") || strings.Contains(svg, "e+09") {
		t.Errorf("epoch axis not labelled from a base:\n%s", svg)
	}
}

// A bag with messages but nothing to plot says so, not "no messages";
// skipped damage is drawn where it lies.
func TestPlotTitleAndHoles(t *testing.T) {
	rep := &Report{Messages: 150, StartLogNS: 0, EndLogNS: 100_000_000,
		Holes: []Hole{{After: 20_000_000, Before: 40_000_000}}}
	var b bytes.Buffer
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if !strings.Contains(svg, "no /clock and no stamp field: 150 messages over 0.100 s of log time") || strings.Contains(svg, ">no messages<") {
		t.Errorf("title:\n%s", svg)
	}
	if !strings.Contains(svg, "damaged chunk: messages skipped") {
		t.Errorf("no hole drawn:\n%s", svg)
	}
}
