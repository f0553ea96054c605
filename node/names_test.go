package node_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/simclock/simclock/node"
)

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"talker", "_hidden", "a1", "Camera_Driver"} {
		if err := node.ValidateName(ok); err != nil {
			t.Errorf("ValidateName(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "9lives", "my-node", "a/b", "ns/x", "é"} {
		if err := node.ValidateName(bad); !errors.Is(err, node.ErrInvalidName) {
			t.Errorf("ValidateName(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
}

func TestNormalizeNamespace(t *testing.T) {
	for in, want := range map[string]string{"": "/", "/": "/", "robot": "/robot", "/robot/arm": "/robot/arm"} {
		got, err := node.NormalizeNamespace(in)
		if err != nil || got != want {
			t.Errorf("NormalizeNamespace(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/robot/", "/a//b", "/1robot", "/ro-bot"} {
		if _, err := node.NormalizeNamespace(bad); !errors.Is(err, node.ErrInvalidName) {
			t.Errorf("NormalizeNamespace(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
}

func TestParseROSArgs(t *testing.T) {
	ra, rest, err := node.ParseROSArgs([]string{"pub", "--rtf", "2", "--ros-args", "-r", "__node:=sim",
		"--remap", "__ns:=world", "-p", "use_sim_time:=true", "--", "--duration", "1s"})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Name != "sim" || ra.Namespace != "/world" || ra.UseSimTime == nil || !*ra.UseSimTime {
		t.Errorf("ROSArgs = %+v", ra)
	}
	if want := []string{"pub", "--rtf", "2", "--duration", "1s"}; !slices.Equal(rest, want) {
		t.Errorf("rest = %q, want %q", rest, want)
	}
	// Without "--" the ROS arguments run to the end, as in rcl.
	ra, rest, err = node.ParseROSArgs([]string{"monitor", "--ros-args", "__node:=watch"})
	if err != nil || ra.Name != "watch" || !slices.Equal(rest, []string{"monitor"}) {
		t.Errorf("old form: %+v %q %v", ra, rest, err)
	}
	for _, bad := range [][]string{
		{"--ros-args", "-r"},
		{"--ros-args", "-r", "chatter:=bad topic"},
		{"--ros-args", "-r", "/clock/:=/sim/clock"},
		{"--ros-args", "-r", "talker:chatter:=talk"},
		{"--ros-args", "-r", "__name:=x"},
		{"--ros-args", "-r", "__node:=bad-name"},
		{"--ros-args", "-p", "use_sim_time:=yes"},
		{"--ros-args", "-p", "rate:=2"},
		{"--ros-args", "--log-level"},
		{"--ros-args", "--enclave", "/x"},
		{"--ros-args", "-r", "__node"},
	} {
		if _, _, err := node.ParseROSArgs(bad); err == nil {
			t.Errorf("ParseROSArgs(%q) accepted", bad)
		}
	}
}

// Topic remappings resolve as rcl's do: relative names in the node's
// namespace, ~ in the node's private namespace, the first matching rule
// wins, and a rule for another topic changes nothing.
func TestRemapTopic(t *testing.T) {
	ra, rest, err := node.ParseROSArgs([]string{"monitor", "--ros-args", "--log-level", "debug",
		"-r", "/clock:=/sim/clock", "-r", "chatter:=talk", "-r", "~/state:=/state", "-r", "/clock:=/other"})
	if err != nil || !slices.Equal(rest, []string{"monitor"}) {
		t.Fatal(rest, err)
	}
	for _, c := range []struct{ topic, ns, want string }{
		{"/clock", "/", "/sim/clock"},
		{"clock", "/", "/sim/clock"},
		{"clock", "/robot", "/robot/clock"},
		{"chatter", "/robot", "/robot/talk"},
		{"/robot/chatter", "/robot", "/robot/talk"},
		{"/chatter", "/robot", "/chatter"},
		{"~/state", "/robot", "/state"},
		{"~", "/robot", "/robot/watch"},
		{"/scan", "/", "/scan"},
	} {
		got, err := ra.RemapTopic(c.topic, c.ns, "watch")
		if err != nil || got != c.want {
			t.Errorf("RemapTopic(%q, %q) = %q, %v; want %q", c.topic, c.ns, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "bad topic!", "/clock/", "//clock", "/1clock", "a~b", "{node}/x"} {
		if err := node.ValidateTopicName(bad); !errors.Is(err, node.ErrInvalidName) {
			t.Errorf("ValidateTopicName(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
}

func FuzzParseROSArgs(f *testing.F) {
	f.Add("pub\x00--ros-args\x00-r\x00__node:=sim\x00--\x00--rtf\x002")
	f.Add("--ros-args\x00__ns:=/a/b\x00-p\x00use_sim_time:=false")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		ra, rest, err := node.ParseROSArgs(args)
		if err != nil {
			return
		}
		if ra.Name != "" && node.ValidateName(ra.Name) != nil {
			t.Errorf("accepted invalid name %q", ra.Name)
		}
		if ra.Namespace != "" {
			if ns, err := node.NormalizeNamespace(ra.Namespace); err != nil || ns != ra.Namespace {
				t.Errorf("accepted namespace %q (%v)", ra.Namespace, err)
			}
		}
		if !slices.Contains(args, "--ros-args") && !slices.Equal(rest, args) {
			t.Errorf("arguments without --ros-args changed: %q -> %q", args, rest)
		}
	})
}
