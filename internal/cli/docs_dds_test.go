package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// docs/dds.md's "Two shells" example shows what pub and monitor print; it
// says that is the output of the same two commands in virtual time. Run
// them so (pub with a /clock reader beside it, monitor with a publisher
// on pub's schedule) and check that every line the document shows is a
// line of the output, so the document cannot drift from the commands.
func TestDDSDocTwoShells(t *testing.T) {
	doc, err := os.ReadFile("../../docs/dds.md")
	if err != nil {
		t.Fatal(err)
	}
	// The console block after prompt, up to its fence.
	block := func(prompt string) []string {
		t.Helper()
		_, rest, ok := strings.Cut(string(doc), "$ "+prompt+"\n")
		if !ok {
			t.Fatalf("docs/dds.md has no %q example", prompt)
		}
		rest, _, _ = strings.Cut(rest, "```")
		return strings.Split(strings.TrimRight(rest, "\n"), "\n")
	}
	check := func(name string, lines []string, out string, least int) {
		t.Helper()
		if len(lines) < least {
			t.Errorf("%s: only %d lines shown in docs/dds.md, want %d or more", name, len(lines), least)
		}
		got := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			got[strings.TrimRight(l, " ")] = true
		}
		for _, l := range lines {
			if !got[strings.TrimRight(l, " ")] {
				t.Errorf("%s: docs/dds.md line not in the output:\n%s\noutput:\n%s", name, l, out)
			}
		}
	}

	// Shell 1: pub, on a bus where a monitor reads /clock.
	const pubArgs = "--start 1700000000 --rtf 2 --pause-at 1700000004 --resume-after 1"
	r := virtualRun(t, nil, 0)
	r.OnExecutor = func(*executor.Executor) {
		tr := r.Bus.Connect("simclock_monitor")
		if _, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockSubscriptionQoS); err != nil {
			t.Fatal(err)
		}
		r.after = append(r.after, func() { tr.Close() })
	}
	out, errOut, code := r.run(append([]string{"pub", "--transport", "inproc", "--duration", "4.001"}, strings.Fields(pubArgs)...)...)
	if code != ExitOK {
		t.Fatalf("pub: exit %d, stderr %q", code, errOut)
	}
	check("pub", block("simclock pub "+pubArgs), out, 6)

	// Shell 2: monitor, with a publisher on pub's schedule.
	sim := peer{"simclock_pub", clockstream.ScheduleConfig{Start: 1_700_000_000 * time.Second, Period: 10 * time.Millisecond,
		Step: 20 * time.Millisecond, Pause: true, PauseAt: 1_700_000_004 * time.Second, ResumeAfter: time.Second}}
	out, errOut, code = virtualRun(t, []peer{sim}, 0).run("monitor", "--transport", "inproc", "--duration", "4", "--expect-rtf", "2±0.2")
	// Over DDS the publisher is named by its node (ros_discovery_info);
	// the in-process bus names it by its attachment and publisher.
	out = strings.ReplaceAll(out, "1 publisher(s): simclock_pub/pub1\n", "1 publisher(s): /simclock_pub\n")
	if code != ExitFailure {
		t.Errorf("monitor: exit %d, want %d (the pause fails --expect-rtf); stderr %q", code, ExitFailure, errOut)
	}
	lines := block("simclock monitor --duration 4 --expect-rtf 2±0.2")
	if n := len(lines); n < 2 || lines[n-2] != "$ echo $?" || lines[n-1] != "1" {
		t.Errorf("docs/dds.md's monitor example does not end with its exit status 1: %q", lines)
	} else {
		lines = lines[:n-2]
	}
	check("monitor", lines, out, 12)
}
