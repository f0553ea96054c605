package bag

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"time"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH = 960, 420
	padL, padR   = 80, 20
	padT, padB   = 48, 50
)

var seriesColors = []string{"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"}

// WriteSVG draws the bag's timeline: /clock (or, without it, the stamps)
// against the recorder's log time, with every finding example marked
// (red: error, orange: warning). Other stamp series are drawn as dots
// when they share the scale of the first series.
func (r *Report) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	var series []Series
	for _, s := range r.Series {
		if len(s.Points) > 0 {
			series = append(series, s)
		}
	}
	title := "no messages"
	if len(series) > 0 {
		title = fmt.Sprintf("%s %s against log time", series[0].Topic, series[0].Field)
		if series[0].Topic == "/clock" {
			title = "sim time (/clock) against the recorder's log time"
		}
	}
	p(`<text x="%d" y="18" font-weight="bold">%s</text>`+"\n", padL, html.EscapeString(title))
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
	p(`<g stroke="#444"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		padL, plotH-padB, plotW-padR, plotH-padB, padL, padT, padL, plotH-padB)
	for _, t := range niceTicks(0, (x1-x0)/1e9) {
		p(`<text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n", X(x0+t*1e9), plotH-padB+16, t)
	}
	for _, t := range niceTicks(y0/1e9, y1/1e9) {
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n",
			padL, Y(t*1e9), plotW-padR, Y(t*1e9), padL-6, Y(t*1e9)+4, t)
	}
	p(`<text x="%d" y="%d" text-anchor="middle">log time since the first message (s)</text>`+"\n", (plotW+padL)/2, plotH-10)
	// Hazard markers, each finding's code written once at its first line.
	p(`<text x="%d" y="%d" fill="#555">dashed lines: red = error, orange = warning (hover for details)</text>`+"\n", padL, 36)
	labelsNear := map[int]int{} // labels already drawn per 12-unit column
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
			p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
				x, padT, x, plotH-padB, color, html.EscapeString(f.Code+" "+f.Topic+" "+f.Field+": "+e.Detail))
			if !labelled {
				labelled = true
				// Stagger the labels so findings at one instant stay readable.
				col := int(x / 12)
				k := labelsNear[col]
				labelsNear[col], labelsNear[col-1], labelsNear[col+1] = k+1, k+1, k+1
				p(`<text transform="translate(%.1f %d) rotate(90)" fill="%s" font-size="10">%s</text>`+"\n", x+3, padT+4+(k%3)*110, color, html.EscapeString(f.Code))
			}
		}
	}
	for i, s := range series {
		color := seriesColors[i%len(seriesColors)]
		if i == 0 {
			p(`<polyline fill="none" stroke="%s" stroke-width="1.5" points="`, color)
			for _, pt := range s.Points {
				p("%.1f,%.1f ", X(float64(pt.LogNS)), Y(float64(pt.ValueNS)))
			}
			p(`"><title>%s</title></polyline>`+"\n", html.EscapeString(s.Topic+" "+s.Field))
			continue
		}
		if i >= len(seriesColors) {
			break
		}
		p(`<g fill="%s"><title>%s</title>`, color, html.EscapeString(s.Topic+" "+s.Field))
		for _, pt := range s.Points {
			if v := float64(pt.ValueNS); v >= y0 && v <= y1 {
				p(`<circle cx="%.1f" cy="%.1f" r="1.5"/>`, X(float64(pt.LogNS)), Y(v))
			}
		}
		p("</g>\n")
	}
	for i, s := range series {
		if i >= len(seriesColors) {
			break
		}
		p(`<text x="%d" y="%d" fill="%s" text-anchor="end">%s</text>`+"\n", plotW-padR, 18+18*i, seriesColors[i], html.EscapeString(s.Topic+" "+s.Field))
	}
	p("</svg>\n")
	return bw.Flush()
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
	p("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>simclock bag inspect</title>\n")
	p("<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}.error{color:#d62728}.warning{color:#ff7f0e}</style></head><body>\n")
	p("<h1>simclock bag inspect</h1>\n<p>")
	for _, f := range r.Files {
		p("%s (%d bytes) ", html.EscapeString(f.Path), f.Bytes)
	}
	p("</p>\n<p>%d messages, %s of log time; /clock: ", r.Messages, time.Duration(r.EndLogNS-r.StartLogNS))
	if r.Clock.Present {
		p("%d messages at %.1f Hz, RTF %.3f", r.Clock.Messages, r.Clock.RateHz, r.Clock.RTF)
	} else {
		p("none")
	}
	p("</p>\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := r.WriteSVG(bw); err != nil {
		return err
	}
	p("<table><tr><th>severity</th><th>code</th><th>rule</th><th>topic</th><th>field</th><th>count</th><th>message</th></tr>\n")
	for _, f := range r.Findings {
		p("<tr class=%q><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>\n",
			f.Severity, f.Severity, f.Code, f.Rule, html.EscapeString(f.Topic), html.EscapeString(f.Field), f.Count, html.EscapeString(f.Message))
	}
	p("</table></body></html>\n")
	return bw.Flush()
}
