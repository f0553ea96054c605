package bag

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/simclock/simclock/internal/units"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH = 960, 420
	padL, padR   = 80, 20
	padT, padB   = 48, 60
)

// WriteSVG draws the bag's timeline: /clock (or, without it, the stamps)
// against the recorder's log time, with every finding example marked
// (red: error, orange: warning). Other stamp series are drawn when they
// share the scale of the first series, each with its own colour and
// marker shape, named in a legend below the plot. Hazard labels are placed
// where they overlap nothing; one that finds no room is listed under the
// plot instead.
func (r *Report) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	var series []Series
	for _, s := range r.Series {
		if len(s.Points) > 0 && len(series) < len(seriesStyles) {
			series = append(series, s)
		}
	}
	// The legend and the labels without room go below the plot.
	legendRows := len(series)
	height := plotH + 18*legendRows
	var unplaced []string
	var body strings.Builder
	q := func(format string, args ...any) { fmt.Fprintf(&body, format, args...) }

	title := "no messages"
	if r.Messages > 0 {
		title = fmt.Sprintf("no /clock and no stamp field: %d messages over %s s of log time, nothing to plot", r.Messages,
			units.Span(r.EndLogNS-r.StartLogNS))
	}
	yLabel := "value (s)"
	if len(series) > 0 {
		title = fmt.Sprintf("%s %s against log time", series[0].Topic, series[0].Field)
		yLabel = fmt.Sprintf("%s %s (s)", series[0].Topic, series[0].Field)
		if series[0].Topic == "/clock" {
			title = "sim time (/clock) against the recorder's log time"
			yLabel = "/clock value, sim time (s)"
		}
	}
	q(`<text x="%d" y="18" font-weight="bold">%s</text>`+"\n", padL, html.EscapeString(title))
	x0, x1 := float64(r.StartLogNS), float64(r.EndLogNS)
	if x1 <= x0 {
		x1 = x0 + 1
	}
	y0, y1 := math.Inf(1), math.Inf(-1)
	if len(series) > 0 {
		for _, pt := range series[0].Points {
			y0, y1 = math.Min(y0, float64(pt.ValueNS)), math.Max(y1, float64(pt.ValueNS))
		}
	}
	if !(y1 > y0) {
		y0, y1 = y0-1e9, y0+1e9
		if math.IsInf(y0, 0) {
			y0, y1 = 0, 1e9
		}
	}
	X := func(ns float64) float64 { return padL + (ns-x0)/(x1-x0)*(plotW-padL-padR) }
	Y := func(ns float64) float64 { return plotH - padB - (ns-y0)/(y1-y0)*(plotH-padT-padB) }
	// Axes with labels in seconds: x relative to the bag start, y absolute.
	q(`<g stroke="#444"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		padL, plotH-padB, plotW-padR, plotH-padB, padL, padT, padL, plotH-padB)
	xTicks := niceTicks(0, (x1-x0)/1e9)
	for i, label := range tickLabels(xTicks, 0) {
		q(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", X(x0+xTicks[i]*1e9), plotH-padB+16, label)
	}
	// Unix-epoch values (most real bags) would need ten digits per label:
	// they are labelled from a round base the axis title names.
	yTicks := niceTicks(y0/1e9, y1/1e9)
	base := tickBase(yTicks)
	if base != 0 {
		yLabel += fmt.Sprintf(", from %s s", strconv.FormatFloat(base, 'f', -1, 64))
	}
	for i, label := range tickLabels(yTicks, base) {
		t := yTicks[i]
		q(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n",
			padL, Y(t*1e9), plotW-padR, Y(t*1e9), padL-6, Y(t*1e9)+4, label)
	}
	// Damaged chunks were skipped here: a grey band over the hole.
	for _, h := range r.Holes {
		a, b := math.Max(float64(h.After), x0), math.Min(float64(h.Before), x1)
		xa, xb := X(a), math.Max(X(b), X(a)+3)
		q(`<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#999" fill-opacity="0.35"><title>damaged chunk: messages skipped, not analysed</title></rect>`+"\n",
			xa, padT, xb-xa, plotH-padB-padT)
		q(`<text x="%.1f" y="%d" fill="#555" font-size="10">damaged</text>`+"\n", xa+2, plotH-padB-4)
	}
	q(`<text x="%d" y="%d" text-anchor="middle">log time since the first message (s)</text>`+"\n", (plotW+padL)/2, plotH-padB+34)
	q(`<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">%s</text>`+"\n",
		(padT+plotH-padB)/2, (padT+plotH-padB)/2, html.EscapeString(yLabel))
	// The window W of the stamp − W checks, when it is on the y scale:
	// at or below it, now − W is negative or zero.
	if w := float64(r.Window); w > 0 && w >= y0 && w <= y1 {
		q(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#4a6fd0" stroke-dasharray="6 4"/>`+"\n", padL, Y(w), plotW-padR, Y(w))
		q(`<text x="%d" y="%.1f" text-anchor="end" fill="#4a6fd0" stroke="white" stroke-width="3" paint-order="stroke">W = %s s</text>`+"\n",
			plotW-padR-4, Y(w)-4, html.EscapeString(strconv.FormatFloat(r.Window.Seconds(), 'f', -1, 64)))
	}
	// Hazard markers; each finding's code is written once, at its first
	// line, where it overlaps no other label.
	q(`<text x="%d" y="%d" fill="#555">dashed lines: red = error, orange = warning (hover for details)</text>`+"\n", padL, 36)
	var placed labelSpace
	var labels strings.Builder // drawn last, over every line
	for _, f := range r.Findings {
		labelled := false
		color := "#ff7f0e"
		switch f.Severity {
		case SeverityError:
			color = "#d62728"
		case SeverityInfo:
			continue
		}
		for _, e := range f.Examples {
			if e.LogNS == 0 {
				continue
			}
			x := X(float64(e.LogNS))
			q(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
				x, padT, x, plotH-padB, color, html.EscapeString(string(f.Code)+" "+f.Topic+" "+f.Field+": "+e.Detail))
			if labelled {
				continue
			}
			labelled = true
			// A label runs down from y along the line, 10 px font: about
			// 6 px per character, 11 px wide.
			length := 6.0 * float64(len(f.Code))
			if y, ok := placed.place(x+1, x+12, padT+2, plotH-padB-2, length); ok {
				// A white halo keeps the label readable across other lines.
				fmt.Fprintf(&labels, `<text transform="translate(%.1f %.1f) rotate(90)" fill="%s" font-size="10" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
					x+3, y, color, html.EscapeString(string(f.Code)))
			} else {
				unplaced = append(unplaced, string(f.Code))
			}
		}
	}
	for i, s := range series {
		st := seriesStyles[i]
		name := html.EscapeString(s.name())
		if i == 0 {
			q(`<polyline fill="none" stroke="%s" stroke-width="1.5" points="`, st.color)
			for _, pt := range s.Points {
				q("%.1f,%.1f ", X(float64(pt.LogNS)), Y(float64(pt.ValueNS)))
			}
			q(`"><title>%s</title></polyline>`+"\n", name)
			continue
		}
		q(`<g fill="%s" stroke="%s"><title>%s</title>`, st.color, st.color, name)
		for _, pt := range s.Points {
			if v := float64(pt.ValueNS); v >= y0 && v <= y1 {
				q("%s", st.marker(X(float64(pt.LogNS)), Y(v)))
			}
		}
		q("</g>\n")
	}
	body.WriteString(labels.String())
	// The legend, one row per series below the axis label: a sample of the
	// line or marker, then the name.
	for i, s := range series {
		st := seriesStyles[i]
		y := float64(plotH + 18*i + 4)
		if i == 0 {
			q(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, padL, y-4, padL+20, y-4, st.color)
		} else {
			q(`<g fill="%s" stroke="%s">%s</g>`, st.color, st.color, st.marker(padL+10, y-4))
		}
		name := s.name()
		if i > 0 && !onScale(s, y0, y1) {
			name += " (off this scale: not drawn)"
		}
		q(`<text x="%d" y="%.1f">%s</text>`+"\n", padL+28, y, html.EscapeString(name))
	}
	if len(unplaced) > 0 {
		height += 18
		q(`<text x="%d" y="%d" fill="#555">%s</text>`+"\n", padL, height-6,
			html.EscapeString("also marked (no room for a label): "+strings.Join(unplaced, ", ")))
	}
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, height, plotW, height)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	p("%s", body.String())
	p("</svg>\n")
	return bw.Flush()
}

// onScale reports whether a point of s falls within y0..y1.
func onScale(s Series, y0, y1 float64) bool {
	for _, pt := range s.Points {
		if v := float64(pt.ValueNS); v >= y0 && v <= y1 {
			return true
		}
	}
	return false
}

// name is how a plot names the series: "/clock", or topic and field.
func (s Series) name() string {
	if s.Topic == "/clock" && strings.HasPrefix(s.Field, "clock") {
		return "/clock" + strings.TrimPrefix(s.Field, "clock") // "/clock (timeline 2)"
	}
	return s.Topic + " " + s.Field
}

// A seriesStyle tells one series from the others by colour and shape.
type seriesStyle struct {
	color string
	shape string // circle, square, triangle, cross, diamond, plus
}

var seriesStyles = []seriesStyle{
	{"#1f77b4", "line"}, {"#2ca02c", "circle"}, {"#9467bd", "square"}, {"#8c564b", "triangle"},
	{"#17becf", "cross"}, {"#7f7f7f", "diamond"},
}

// marker draws the series' point marker centred on x, y.
func (s seriesStyle) marker(x, y float64) string {
	switch s.shape {
	case "square":
		return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="4" height="4"/>`, x-2, y-2)
	case "triangle":
		return fmt.Sprintf(`<path d="M%.1f %.1fl2.5 4.5h-5z"/>`, x, y-2.5)
	case "cross":
		return fmt.Sprintf(`<path d="M%.1f %.1fl5 5m0 -5l-5 5" fill="none"/>`, x-2.5, y-2.5)
	case "diamond":
		return fmt.Sprintf(`<path d="M%.1f %.1fl3 3l-3 3l-3 -3z"/>`, x, y-3)
	}
	return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="2"/>`, x, y)
}

// labelSpace keeps the boxes of the labels placed so far.
type labelSpace []labelBox

type labelBox struct{ x0, x1, y0, y1 float64 }

// place finds the first y in [top, bottom-length] where a label of that
// length, spanning x0..x1, overlaps no label placed before, and reserves
// it.
func (ls *labelSpace) place(x0, x1, top, bottom, length float64) (float64, bool) {
	for y := top; y+length <= bottom; {
		clash := false
		for _, b := range *ls {
			if x0 < b.x1 && b.x0 < x1 && y < b.y1 && b.y0 < y+length {
				clash, y = true, b.y1+2
				break
			}
		}
		if !clash {
			*ls = append(*ls, labelBox{x0, x1, y, y + length})
			return y, true
		}
	}
	return 0, false
}

// tickLabels prints ticks (as niceTicks returns them) minus base with as
// many decimals as their step needs: 0.6, not 0.6000000000000001; a
// label relative to a base is signed (+2.5).
func tickLabels(ticks []float64, base float64) []string {
	decimals := 0
	if len(ticks) > 1 {
		step := ticks[1] - ticks[0]
		decimals = max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	}
	labels := make([]string, len(ticks))
	for i, t := range ticks {
		labels[i] = strconv.FormatFloat(t-base, 'f', decimals, 64)
		if base != 0 && t-base >= 0 {
			labels[i] = "+" + labels[i]
		}
	}
	return labels
}

// tickBase is 0 when the ticks' labels are short, else a round value at
// or below the first tick that they are labelled from: seconds since the
// epoch over a few seconds of a bag print as +0 … +5.
func tickBase(ticks []float64) float64 {
	if len(ticks) < 2 || math.Max(math.Abs(ticks[0]), math.Abs(ticks[len(ticks)-1])) < 1e5 {
		return 0
	}
	unit := math.Pow(10, math.Ceil(math.Log10(ticks[len(ticks)-1]-ticks[0])))
	return math.Floor(ticks[0]/unit) * unit
}

// niceTicks returns 3 to 10 round values (1, 2 or 5 times a power of
// ten apart) covering [lo, hi].
func niceTicks(lo, hi float64) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 8 {
			step *= m
			break
		}
	}
	var ticks []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		ticks = append(ticks, math.Round(t/step)*step)
	}
	return ticks
}

// WriteHTML writes a self-contained HTML page: the timeline of WriteSVG
// and the findings table.
func (r *Report) WriteHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	esc := html.EscapeString
	p("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>simclock bag inspect</title>\n")
	p("<style>body{font-family:sans-serif}table{border-collapse:collapse;margin:8px 0}td,th{padding:2px 8px;text-align:left;vertical-align:top}" +
		"tr:nth-child(even){background:#f6f6f6}.error{color:#d62728}.warning{color:#ff7f0e}.ex{color:#444;font-size:90%%}</style></head><body>\n")
	p("<h1>simclock bag inspect</h1>\n")
	p("<h2>Files</h2>\n<table><tr><th>file</th><th>bytes</th><th>storage</th><th>chunks</th><th>compression</th><th>messages</th><th>damage</th></tr>\n")
	for _, f := range r.Files {
		comp := strings.Join(f.Compression, ", ")
		if f.FileCompression != "" {
			comp = strings.TrimPrefix(comp+", file "+f.FileCompression, ", ")
		}
		damage := ""
		if len(f.Damaged) > 0 || f.Skipped > 0 {
			damage = fmt.Sprintf("%d damaged chunks skipped, %d messages not analysed", len(f.Damaged), f.Skipped)
		}
		if f.Error != "" {
			damage = strings.TrimPrefix(damage+"; "+f.Error, "; ")
		}
		p("<tr><td>%s</td><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%d</td><td>%s</td></tr>\n",
			esc(f.Path), f.Bytes, esc(f.Storage), f.Chunks, esc(comp), f.Messages, esc(damage))
	}
	p("</table>\n<p>%d messages over %s s of log time. /clock: ", r.Messages, units.Span(r.EndLogNS-r.StartLogNS))
	if c := r.Clock; c.Present {
		p("%d messages at %.2f Hz (period %s s, step %s s), %s → %s s; %s; %d backward jumps, %d gaps, %d pauses, %d forward jumps.",
			c.Messages, c.RateHz, units.Span(c.PeriodNS), units.Span(c.StepNS), units.Value(c.FirstNS), units.Value(c.LastNS),
			esc(c.RTFText()), c.BackwardJumps, c.Gaps, c.Pauses, c.ForwardJumps)
		for _, tl := range c.Timelines {
			p(" %s: %d messages at %.2f Hz, RTF %s, last value %s s.", esc(tl.ID), tl.Messages, tl.RateHz, ratioText(tl.RTF), units.Value(tl.Value))
		}
	} else {
		p("none in this bag; stamps are compared with the recorder's log time.")
	}
	p("</p>\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := r.WriteSVG(bw); err != nil {
		return err
	}
	p("<h2>Topics</h2>\n<table><tr><th>topic</th><th>type</th><th>messages</th><th>rate</th><th>publishers</th><th>time fields</th></tr>\n")
	for _, t := range r.Topics {
		var fields []string
		for _, tf := range t.TimeFields {
			fields = append(fields, fmt.Sprintf("%s ×%d", tf.Field, tf.Count))
		}
		p("<tr><td>%s</td><td>%s</td><td>%d</td><td>%.2f Hz</td><td>%d</td><td>%s</td></tr>\n",
			esc(t.Topic), esc(t.Type), t.Messages, t.RateHz, t.Publishers, esc(strings.Join(fields, ", ")))
	}
	p("</table>\n<h2>Findings</h2>\n")
	p("<table><tr><th>severity</th><th>code</th><th>rules</th><th>topic</th><th>count</th><th>message and examples</th></tr>\n")
	for _, f := range r.Findings {
		var links []string
		for _, id := range f.Rules {
			links = append(links, fmt.Sprintf("<a href=%q>%s</a>", id.URL(), id))
		}
		topic := strings.TrimSpace(f.Topic + " " + f.Field)
		p("<tr class=%q><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s",
			f.Severity, f.Severity, f.Code, strings.Join(links, " "), esc(topic), f.Count, esc(f.Message))
		for _, e := range f.Examples {
			if d := r.Describe(f, e); d != "" {
				p("<div class=\"ex\">%s</div>", esc(d))
			}
		}
		p("</td></tr>\n")
	}
	p("</table></body></html>\n")
	return bw.Flush()
}
