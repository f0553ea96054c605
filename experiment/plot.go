package experiment

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/simclock/simclock/internal/units"
)

// PlotStartupSVG draws one panel per scenario and window W asked for
// (cfg.Windows): the sim time each subject callback saw (y) against wall
// time since the subject was created (x). Each sim-clock timer tick is
// coloured by what now() − W does in that panel: red crosses raise,
// orange diamonds return exactly 0, green dots are real instants. The
// steady (wall) timer's squares are coloured by now() − cfg.CtorWindow,
// what that timer computes. The dashed line is W; the grey band is the
// time before the first /clock.
func PlotStartupSVG(w io.Writer, cfg StartupConfig, results []ScenarioResult) error {
	const (
		panelW, panelH = 900, 200
		left, right    = 70, 20
		top, bottom    = 40, 40
	)
	windows := cfg.Windows
	if len(windows) == 0 {
		windows = []time.Duration{cfg.CtorWindow}
	}
	type panel struct {
		r   ScenarioResult
		win time.Duration
	}
	var panels []panel
	for _, r := range results {
		for _, win := range windows {
			panels = append(panels, panel{r, win})
		}
	}
	height := len(panels) * (panelH + top + bottom)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", panelW+left+right, height+20)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for i, pn := range panels {
		r, mark := pn.r, pn.win
		y0 := i*(panelH+top+bottom) + top
		// Scales.
		maxWall, minNow, maxNow := 0.0, math.Inf(1), math.Inf(-1)
		for _, t := range r.Ticks {
			maxWall = math.Max(maxWall, float64(t.WallNs)/1e9)
			if t.NowNs > 0 {
				minNow = math.Min(minNow, float64(t.NowNs)/1e9)
			}
			maxNow = math.Max(maxNow, float64(t.NowNs)/1e9)
		}
		lo := 0.0
		if minNow > 10 { // S far from 0: zoom on the run, show 0 at the bottom edge
			lo = math.Floor(minNow - 1)
		}
		hi := math.Max(maxNow, lo+1)
		if lo == 0 {
			hi = math.Max(hi, mark.Seconds()) * 1.05
		} else {
			hi += 0.2
		}
		hi = math.Ceil(hi*10) / 10
		if maxWall == 0 {
			maxWall = 1
		}
		x := func(s float64) float64 { return left + s/maxWall*panelW }
		y := func(s float64) float64 {
			if s < lo {
				s = lo
			}
			return float64(y0) + panelH - (s-lo)/(hi-lo)*panelH
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="14" font-weight="bold">S = %s, W = %s: first /clock after %s s, %d /clock messages, RTF %.3g</text>`+"\n",
			left, y0-12, FormatSeconds(int64(r.S)), FormatSeconds(int64(mark)), units.Span(r.PreClockWall), r.Published, r.MeasuredRTF)
		// Before the first /clock.
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#eee"/>`+"\n", x(0), y0, x(r.PreClockWall.Seconds())-x(0), panelH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#888">before the first /clock: now() = 0</text>`+"\n", x(0)+4, y0+14)
		// Axes.
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, y0+panelH, left+panelW, y0+panelH)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, y0, left, y0+panelH)
		for k := 0; float64(k)*0.5 <= maxWall+1e-9; k++ {
			s := float64(k) * 0.5
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s s</text>`+"\n", x(s), y0+panelH+16, strconv.FormatFloat(s, 'f', 1, 64))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">wall time since the subject was created</text>`+"\n", left+panelW, y0+panelH+32)
		// Far from 0 (a Unix-epoch S) the axis counts from lo, which the
		// axis title names: ten-digit labels would not fit.
		yTitle, loLabel, hiLabel := "now() seen (sim time)", strconv.FormatFloat(lo, 'f', -1, 64)+" s", strconv.FormatFloat(hi, 'f', 1, 64)+" s"
		if lo >= 1e5 {
			yTitle = "now() seen, from " + strconv.FormatFloat(lo, 'f', -1, 64) + " s"
			loLabel, hiLabel = "+0 s", "+"+strconv.FormatFloat(hi-lo, 'f', 1, 64)+" s"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text><text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y(lo)+4, loLabel, left-6, y(hi)+4, hiLabel)
		if lo > 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#888">axis broken: ticks at now() = 0 are drawn on the bottom edge</text>`+"\n", left+panelW/2, y0+panelH-6)
		}
		fmt.Fprintf(&b, `<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">%s</text>`+"\n", y0+panelH/2, y0+panelH/2, yTitle)
		if win := mark.Seconds(); win >= lo && win <= hi {
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#36c" stroke-dasharray="6 4"/><text x="%d" y="%.1f" fill="#36c" text-anchor="end">W = %s</text>`+"\n",
				left, y(win), left+panelW, y(win), left+panelW-4, y(win)-4, FormatSeconds(int64(mark)))
		}
		for _, t := range r.Ticks {
			px, py := x(float64(t.WallNs)/1e9), y(float64(t.NowNs)/1e9)
			m := mark
			if t.Timer == "wall" {
				m = cfg.CtorWindow // the steady timer computes now() - CtorWindow
			}
			outcome := Classify(t.NowNs, m)
			color := map[Outcome]string{OutcomeError: "#d22", OutcomeZero: "#f90", OutcomePositive: "#2a2"}[outcome]
			title := html.EscapeString(fmt.Sprintf("%s tick: wall %s, now %s, now − %s: %s", t.Timer,
				FormatSeconds(t.WallNs), FormatSeconds(t.NowNs), FormatSeconds(int64(m)), outcome))
			switch {
			case t.Timer == "wall":
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="6" height="6" fill="none" stroke="%s"><title>%s</title></rect>`+"\n", px-3, py-3, color, title)
			case outcome == OutcomeError:
				fmt.Fprintf(&b, `<path d="M%.1f %.1fl6 6m0 -6l-6 6" stroke="%s" stroke-width="1.5"><title>%s</title></path>`+"\n", px-3, py-3, color, title)
			case outcome == OutcomeZero:
				fmt.Fprintf(&b, `<path d="M%.1f %.1fl5 5l-5 5l-5 -5z" fill="%s"><title>%s</title></path>`+"\n", px, py-5, color, title)
			default:
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s</title></circle>`+"\n", px, py, color, title)
			}
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555">Marks for now() − W (the panel's W; □ steady timer: now() − %s): red × raises (negative time), orange ◆ returns time 0, green • a real instant.</text>`+"\n",
		left, height+10, FormatSeconds(int64(cfg.CtorWindow)))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
