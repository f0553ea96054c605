package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/simclock/simclock/rules"
)

// failOnHelp says what --fail-on does, the same for lint, bag inspect and
// doctor (docs/cli.md).
const failOnHelp = "exit 1 when a finding has this severity or worse: warning, error, info or never"

// failOnFlag is the --fail-on value: one policy, rules.FailOn, for every
// command that reports findings.
type failOnFlag struct{ f *rules.FailOn }

// addFailOnFlag registers --fail-on on flags.
func addFailOnFlag(flags *pflag.FlagSet, target *rules.FailOn) {
	flags.Var(failOnFlag{target}, "fail-on", failOnHelp)
}

func (v failOnFlag) String() string {
	if v.f == nil {
		return rules.FailOnWarning.String()
	}
	return v.f.String()
}

func (v failOnFlag) Set(s string) error {
	f, err := rules.ParseFailOn(s)
	if err != nil {
		return fmt.Errorf("want %s", oneOf(rules.FailOnWords))
	}
	*v.f = f
	return nil
}

func (failOnFlag) Type() string { return "severity" }
