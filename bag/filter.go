package bag

import (
	"slices"
)

// OnlyTopics returns a copy of the report narrowed to the given topics
// (simclock bag inspect --topics): their topic lines, findings and
// plotted series. Findings about no topic in particular (damage, reading,
// metadata, no /clock) are kept; findings about other topics, /clock's
// among them unless it is listed, are dropped and counted in Hidden. The
// bag's figures (messages, span, the /clock summary) stay the whole
// bag's: the analysis read every topic, as stamps are compared with
// /clock whatever is shown. missing lists the topics asked for that the
// bag does not have.
func (r *Report) OnlyTopics(topics []string) (narrowed *Report, hidden int, missing []string) {
	if len(topics) == 0 {
		return r, 0, nil
	}
	want := map[string]bool{}
	for _, t := range topics {
		want[t] = true
	}
	c := *r
	c.Topics = nil
	for _, t := range r.Topics {
		if want[t.Topic] {
			c.Topics = append(c.Topics, t)
		}
	}
	c.Findings = nil
	for _, f := range r.Findings {
		if f.Topic == "" || want[f.Topic] {
			c.Findings = append(c.Findings, f)
		} else {
			hidden++
		}
	}
	c.Series = nil
	for _, s := range r.Series {
		if want[s.Topic] {
			c.Series = append(c.Series, s)
		}
	}
	for _, t := range topics {
		if !slices.ContainsFunc(r.Topics, func(tr TopicReport) bool { return tr.Topic == t }) && !slices.Contains(missing, t) {
			missing = append(missing, t)
		}
	}
	return &c, hidden, missing
}
