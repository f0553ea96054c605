package cli

import (
	"github.com/spf13/pflag"
)

// Output formats shared by every reporting command.
const (
	formatText  = "text"
	formatJSON  = "json"
	formatSARIF = "sarif"
)

// addFormatFlag registers --format on flags; allowed lists extra formats
// (such as "sarif") beyond text and json.
func addFormatFlag(flags *pflag.FlagSet, target *string, allowed ...string) {
	help := "output format: text or json (JSON lines)"
	for _, a := range allowed {
		help += " or " + a
	}
	flags.StringVar(target, "format", formatText, help)
}

// checkFormat validates a --format value.
func checkFormat(got string, allowed ...string) error {
	if got == formatText || got == formatJSON {
		return nil
	}
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return flagErrorf("--format %q: want text or json", got)
}
