package cli

import (
	"strings"
	"testing"
)

// A value outside an enum flag's words is a usage error that lists the
// command's real choices (lint --format xml used to say "want text or
// json").
func TestEnumFlagErrorsListTheChoices(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", "--format", "xml", "."}, `"xml" for "--format" flag: want text, json, sarif or junit`},
		{[]string{"bag", "inspect", "--format", "xml", "x.mcap"}, `want text, json, sarif or junit`},
		{[]string{"doctor", "--format", "xml"}, `want text, json, sarif or junit`},
		{[]string{"pub", "--format", "sarif"}, `"sarif" for "--format" flag: want text or json`},
		{[]string{"monitor", "--transport", "tcp"}, `want dds or inproc`},
		{[]string{"bag", "clock", "--transport", "tcp", "x.mcap"}, `want dds or inproc`},
		{[]string{"experiment", "startup", "--transport", "tcp"}, `want inproc or dds`},
		{[]string{"experiment", "startup", "--mode", "later"}, `want virtual or realtime`},
		{[]string{"lint", "--fail-on", "fatal", "."}, `want warning, error, info or never`},
		{[]string{"bag", "inspect", "--fail-on", "fatal", "x.mcap"}, `want warning, error, info or never`},
		{[]string{"doctor", "--fail-on", "fatal"}, `want warning, error, info or never`},
	} {
		_, errOut, code := runSimclock(t, tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errOut, ExitUsage, tc.want)
		}
	}
}
