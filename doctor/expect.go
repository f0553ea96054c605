package doctor

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Expectations: what a launch test or CI job asserts of a graph's time
// after bringing a simulation up (doctor --expect). Each that does not
// hold is a finding of its check (check_expect_*.go); each that holds is
// said so in Report.Expectations.

// The kinds of expectation.
const (
	// ExpectSimTime: every node matching Pattern (a path.Match glob on
	// full node names, "/robot/*") is on sim time and its clock reader
	// hears a writer (a node publishing a clock passes); at least one
	// node matches.
	ExpectSimTime = "sim_time"
	// ExpectSimStamps: every topic matching Pattern carries stamps on
	// /clock's time base, and some were sampled; on a tf topic, every
	// transform does.
	ExpectSimStamps = "sim_stamps"
	// ExpectClockRate: every writer of the clock topic Pattern (default
	// /clock) publishes at MinHz to MaxHz, and there is one.
	ExpectClockRate = "clock_rate"
)

// ErrExpectation reports an --expect that does not parse.
var ErrExpectation = errors.New("bad expectation")

// An Expectation is one thing a graph must show.
type Expectation struct {
	Kind    string
	Pattern string // a node or topic glob; for clock_rate, the clock topic
	// MinHz and MaxHz bound a clock_rate.
	MinHz, MaxHz float64
}

// String is the expectation as --expect spells it.
func (e Expectation) String() string {
	if e.Kind == ExpectClockRate {
		s := fmt.Sprintf("%s=%s..%s", e.Kind, fmtHz(e.MinHz), fmtHz(e.MaxHz))
		if e.Pattern != "/clock" {
			s = fmt.Sprintf("%s=%s:%s..%s", e.Kind, e.Pattern, fmtHz(e.MinHz), fmtHz(e.MaxHz))
		}
		return s
	}
	return e.Kind + "=" + e.Pattern
}

func fmtHz(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ParseExpectation reads an --expect: "sim_time=/robot/*",
// "sim_stamps=/scan", "clock_rate=90..110" or
// "clock_rate=/robot1/clock:90..110" (Hz).
func ParseExpectation(s string) (Expectation, error) {
	kind, arg, ok := strings.Cut(s, "=")
	if !ok || arg == "" {
		return Expectation{}, fmt.Errorf("%w %q: want sim_time=NODE, sim_stamps=TOPIC or clock_rate=MIN..MAX", ErrExpectation, s)
	}
	e := Expectation{Kind: kind, Pattern: arg}
	switch kind {
	case ExpectSimTime, ExpectSimStamps:
		if !strings.HasPrefix(arg, "/") {
			return Expectation{}, fmt.Errorf("%w %q: %s is not a full ROS name (it starts with /)", ErrExpectation, s, arg)
		}
		if _, err := path.Match(arg, ""); err != nil {
			return Expectation{}, fmt.Errorf("%w %q: %v", ErrExpectation, s, err)
		}
	case ExpectClockRate:
		e.Pattern = "/clock"
		if topic, rng, ok := strings.Cut(arg, ":"); ok {
			if !strings.HasPrefix(topic, "/") {
				return Expectation{}, fmt.Errorf("%w %q: %s is not a full ROS name", ErrExpectation, s, topic)
			}
			e.Pattern, arg = topic, rng
		}
		lo, hi, ok := strings.Cut(arg, "..")
		var err1, err2 error
		e.MinHz, err1 = strconv.ParseFloat(lo, 64)
		e.MaxHz, err2 = strconv.ParseFloat(hi, 64)
		if !ok || err1 != nil || err2 != nil || math.IsNaN(e.MinHz) || math.IsNaN(e.MaxHz) || e.MinHz < 0 || e.MaxHz < e.MinHz || math.IsInf(e.MinHz, 0) {
			return Expectation{}, fmt.Errorf("%w %q: want clock_rate=MIN..MAX in Hz, MIN <= MAX (90..110)", ErrExpectation, s)
		}
	default:
		return Expectation{}, fmt.Errorf("%w %q: unknown kind %q (sim_time, sim_stamps, clock_rate)", ErrExpectation, s, kind)
	}
	return e, nil
}

// An ExpectationResult says whether an expectation held, and how.
type ExpectationResult struct {
	Expect string `json:"expect"` // as --expect spells it
	Kind   string `json:"kind_of"`
	Met    bool   `json:"met"`
	// Subject is the node, topic or clock writer that failed it, or the
	// pattern it held for; empty when nothing matched.
	Subject string `json:"subject,omitempty"`
	Detail  string `json:"detail"`
	topic   string // for its finding
}

// expectations judges every expectation against the analysis: one result
// per expectation that held, one per node, topic or writer that failed
// it.
func (a *analysis) expectations() []ExpectationResult {
	var out []ExpectationResult
	for _, e := range a.obs.Expect {
		switch e.Kind {
		case ExpectSimTime:
			out = append(out, a.expectSimTime(e)...)
		case ExpectSimStamps:
			out = append(out, a.expectSimStamps(e)...)
		case ExpectClockRate:
			out = append(out, a.expectClockRate(e)...)
		}
	}
	return out
}

func matches(pattern, name string) bool {
	ok, _ := path.Match(pattern, name) // checked when parsed
	return ok
}

func (a *analysis) expectSimTime(e Expectation) []ExpectationResult {
	res := func(met bool, subject, detail string) ExpectationResult {
		return ExpectationResult{Expect: e.String(), Kind: e.Kind, Met: met, Subject: subject, Detail: detail, topic: "/clock"}
	}
	var out, failed []ExpectationResult
	var names []string
	for _, n := range a.nodes() {
		if !matches(e.Pattern, n.Name) {
			continue
		}
		names = append(names, n.Name)
		switch {
		case n.PublishesClock:
		case !n.SimTime:
			failed = append(failed, res(false, n.Name, n.Name+" is not on sim time: it has no clock reader (use_sim_time is false)"))
		case n.ClockMatched != nil && *n.ClockMatched == 0:
			failed = append(failed, res(false, n.Name, fmt.Sprintf("%s reads %s, but its reader matches no writer: its time stays 0", n.Name, n.ClockTopic)))
		}
	}
	switch {
	case len(names) == 0:
		out = append(out, res(false, "", "no node matches "+e.Pattern))
	case len(failed) > 0:
		out = append(out, failed...)
	default:
		out = append(out, res(true, e.Pattern, fmt.Sprintf("%d node(s) on sim time: %s", len(names), strings.Join(names, ", "))))
	}
	return out
}

func (a *analysis) expectSimStamps(e Expectation) []ExpectationResult {
	res := func(met bool, topic, detail string) ExpectationResult {
		return ExpectationResult{Expect: e.String(), Kind: e.Kind, Met: met, Subject: topic, Detail: detail, topic: topic}
	}
	var out, failed []ExpectationResult
	var names []string
	for _, t := range a.topics() {
		if !matches(e.Pattern, t.Name) {
			continue
		}
		names = append(names, t.Name)
		switch schema := a.obs.Schemas["rt"+t.Name]; {
		case schema != "":
			failed = append(failed, res(false, t.Name, fmt.Sprintf("%s (%s) carries no stamp doctor reads (%s)", t.Name, t.Type, schema)))
		case t.Samples == 0:
			failed = append(failed, res(false, t.Name, t.Name+": no stamp was sampled (nothing published, or not yet)"))
		case t.StampBase != "sim":
			failed = append(failed, res(false, t.Name, fmt.Sprintf("%s carries %s stamps, not sim time: %s", t.Name, t.StampBase, byPublisher(t))))
		}
	}
	for _, tr := range a.tf {
		if !tr.Static && matches(e.Pattern, tr.Topic) && tr.Samples > 0 && tr.Base != "sim" {
			failed = append(failed, res(false, tr.Topic, fmt.Sprintf("%s's transform %s on %s is stamped %s, not sim time",
				tr.Publisher, tr, tr.Topic, tr.Base)))
		}
	}
	switch {
	case len(names) == 0:
		out = append(out, res(false, "", "no topic matches "+e.Pattern))
	case len(failed) > 0:
		out = append(out, failed...)
	default:
		out = append(out, res(true, e.Pattern, "sim stamps on "+strings.Join(names, ", ")))
	}
	return out
}

// byPublisher says each publisher's stamp base: "/a sim, /b wall".
func byPublisher(t TopicReport) string {
	var parts []string
	for _, p := range t.ByPublisher {
		parts = append(parts, p.Publisher+" "+p.Base)
	}
	return strings.Join(parts, ", ")
}

func (a *analysis) expectClockRate(e Expectation) []ExpectationResult {
	res := func(met bool, subject, detail string) ExpectationResult {
		return ExpectationResult{Expect: e.String(), Kind: e.Kind, Met: met, Subject: subject, Detail: detail, topic: e.Pattern}
	}
	var out []ExpectationResult
	var ok []string
	for _, c := range a.clockRows {
		if c.Topic != e.Pattern {
			continue
		}
		switch {
		case c.Msgs < 2:
			out = append(out, res(false, c.Node, fmt.Sprintf("%s from %s: %d message(s), no rate", c.Topic, c.Node, c.Msgs)))
		case c.Left || c.Silence > 0:
			out = append(out, res(false, c.Node, fmt.Sprintf("%s from %s stopped (it published at %.1f Hz)", c.Topic, c.Node, c.RateHz)))
		case c.RateHz < e.MinHz || c.RateHz > e.MaxHz:
			out = append(out, res(false, c.Node, fmt.Sprintf("%s from %s at %.1f Hz, outside %s..%s Hz", c.Topic, c.Node, c.RateHz,
				fmtHz(e.MinHz), fmtHz(e.MaxHz))))
		default:
			ok = append(ok, fmt.Sprintf("%s %.1f Hz", c.Node, c.RateHz))
		}
	}
	switch {
	case len(out) > 0:
	case len(ok) == 0:
		out = append(out, res(false, "", "nobody publishes "+e.Pattern))
	default:
		slices.Sort(ok)
		out = append(out, res(true, e.Pattern, e.Pattern+" at "+strings.Join(ok, ", ")))
	}
	return out
}

// unmet is the findings of the unmet expectations of kind.
func (a *analysis) unmet(kind string) []ExpectationResult {
	var out []ExpectationResult
	for _, r := range a.expects {
		if r.Kind == kind && !r.Met {
			out = append(out, r)
		}
	}
	return out
}
