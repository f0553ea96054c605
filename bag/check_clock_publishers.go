package bag

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockPublishers: /clock had more than one publisher: its channel's
// offered QoS profiles say so, or its values alternate between timelines
// (clockstream.Splitter), which a bag shows though it records no
// publisher per message.
const CodeClockPublishers rules.Code = "clock_publishers"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockPublishers, Severity: rules.Warning, Rules: []rules.ID{rules.R18},
			Title: "/clock had several publishers when recorded, or its values alternate between several timelines",
			Fix:   "run one /clock publisher (one simulator, no bag play --clock beside it)"},
		Detect: clockPublishers,
	}, describeDetail)
}

// clockPublishers: one finding when /clock had several publishers, with
// each timeline's rate and RTF as examples when its values interleave.
func clockPublishers(t *tally) []rules.Finding {
	c := t.clock.report
	lines := c.Timelines
	if len(lines) < 2 && c.Publishers < 2 {
		return nil
	}
	f := rules.Finding{Subject: rules.Subject{Topic: c.topic()}, Count: int64(max(c.Publishers, len(lines)))}
	if len(lines) < 2 {
		f.Message = fmt.Sprintf("/clock had %d publishers when recorded: more than one is a fault", c.Publishers)
		return []rules.Finding{f}
	}
	var each []string
	for _, tl := range lines {
		each = append(each, fmt.Sprintf("%s at %.1f Hz, RTF %s", tl.ID, tl.RateHz, ratioText(tl.RTF)))
		if len(f.Examples) < t.opts.Examples {
			f.Examples = append(f.Examples, rules.Example{ValueNS: tl.Value, Detail: timelineDetail(tl)})
		}
	}
	f.Message = fmt.Sprintf("/clock values alternate between %d timelines: several publishers (%s); no one RTF describes /clock",
		len(lines), strings.Join(each, "; "))
	if c.Publishers > 1 {
		f.Message += fmt.Sprintf("; %d publishers when recorded", c.Publishers)
	}
	return []rules.Finding{f}
}

// timelineDetail describes one timeline of /clock in an example.
func timelineDetail(tl clockstream.PublisherStats) string {
	return fmt.Sprintf("%s: %d messages at %.1f Hz, RTF %s, last value %s s", tl.ID, tl.Messages, tl.RateHz, ratioText(tl.RTF), units.Value(tl.Value))
}
