package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// Output formats shared by every reporting command.
const (
	formatText  = "text"
	formatJSON  = "json"
	formatSARIF = "sarif"
	formatJUnit = "junit" // JUnit XML, as ament's linters write it
)

// addFormatFlag registers --format on flags: text and json, and the extra
// formats a command also writes (such as "sarif").
func addFormatFlag(flags *pflag.FlagSet, target *string, extra ...string) {
	choices := append([]string{formatText, formatJSON}, extra...)
	addEnumFlag(flags, target, "format", formatText, "output format (json: JSON lines)", choices...)
}

// An enumFlag is a flag that takes one of a fixed set of words, as gh's
// StringEnumFlag: any other value is a usage error that lists them
// (`--format "xml"`: want text, json or sarif), and --help shows them.
type enumFlag struct {
	target  *string
	choices []string
}

// addEnumFlag registers --name on flags, one of choices, def by default.
func addEnumFlag(flags *pflag.FlagSet, target *string, name, def, help string, choices ...string) {
	*target = def
	flags.Var(&enumFlag{target: target, choices: choices}, name, help+": "+oneOf(choices))
}

func (f *enumFlag) String() string { return *f.target }

func (f *enumFlag) Set(s string) error {
	if !slices.Contains(f.choices, s) {
		return fmt.Errorf("want %s", oneOf(f.choices))
	}
	*f.target = s
	return nil
}

func (f *enumFlag) Type() string { return "string" }

// oneOf lists words as a choice: "text, json or sarif".
func oneOf(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
