package node

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidName reports a node name or namespace that ROS 2 rejects.
var ErrInvalidName = errors.New("invalid ROS name")

// ValidateName checks a node name as rmw_validate_node_name does: one
// token of letters, digits and underscores, not starting with a digit, at
// most 255 characters.
func ValidateName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("node name: %w: empty", ErrInvalidName)
	case len(name) > 255:
		return fmt.Errorf("node name %q: %w: longer than 255 characters", name, ErrInvalidName)
	case name[0] >= '0' && name[0] <= '9':
		return fmt.Errorf("node name %q: %w: starts with a digit", name, ErrInvalidName)
	}
	for i, c := range name {
		if !isNameChar(c) {
			return fmt.Errorf("node name %q: %w: %q at %d (want letters, digits and _)", name, ErrInvalidName, c, i)
		}
	}
	return nil
}

// NormalizeNamespace returns namespace as ROS 2 uses it: "" becomes "/",
// a relative "robot" becomes "/robot" (as rclcpp does), and every token
// is checked like rmw_validate_namespace: letters, digits and
// underscores, not starting with a digit, no empty token, no trailing
// slash except for "/".
func NormalizeNamespace(namespace string) (string, error) {
	if namespace == "" || namespace == "/" {
		return "/", nil
	}
	if !strings.HasPrefix(namespace, "/") {
		namespace = "/" + namespace
	}
	if strings.HasSuffix(namespace, "/") {
		return "", fmt.Errorf("namespace %q: %w: ends with /", namespace, ErrInvalidName)
	}
	for tok := range strings.SplitSeq(namespace[1:], "/") {
		if tok == "" {
			return "", fmt.Errorf("namespace %q: %w: empty token (//)", namespace, ErrInvalidName)
		}
		if tok[0] >= '0' && tok[0] <= '9' {
			return "", fmt.Errorf("namespace %q: %w: token %q starts with a digit", namespace, ErrInvalidName, tok)
		}
		for _, c := range tok {
			if !isNameChar(c) {
				return "", fmt.Errorf("namespace %q: %w: %q (want letters, digits, _ and /)", namespace, ErrInvalidName, c)
			}
		}
	}
	if len(namespace) > 255 {
		return "", fmt.Errorf("namespace %q: %w: longer than 255 characters", namespace, ErrInvalidName)
	}
	return namespace, nil
}

func isNameChar(c rune) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// ROSArgs is what ParseROSArgs understood of a command line's ROS
// arguments.
type ROSArgs struct {
	// Name and Namespace are the __node:= and __ns:= remappings; empty
	// when absent.
	Name, Namespace string
	// UseSimTime is set by "-p use_sim_time:=true|false"; nil when absent.
	UseSimTime *bool
	// Remaps are the topic remappings "-r FROM:=TO" in the order given,
	// names as typed (relative ones are resolved against the node's
	// namespace when applied; see RemapTopic).
	Remaps []Remap
}

// A Remap is one topic remapping rule, "-r From:=To".
type Remap struct{ From, To string }

// RemapTopic returns the fully qualified name of topic for the node
// namespace/name, after the first of ra's remappings whose From resolves
// to the same name, as rcl applies them: ("clock", "/robot", "sim") is
// "/robot/clock", and with "-r /robot/clock:=/sim/clock" it is
// "/sim/clock".
func (ra ROSArgs) RemapTopic(topic, namespace, name string) (string, error) {
	full, err := ExpandTopicName(topic, namespace, name)
	if err != nil {
		return "", err
	}
	for _, r := range ra.Remaps {
		from, err := ExpandTopicName(r.From, namespace, name)
		if err != nil {
			return "", err
		}
		if from == full {
			return ExpandTopicName(r.To, namespace, name)
		}
	}
	return full, nil
}

// ValidateTopicName checks a topic name as rcl_validate_topic_name does,
// without substitutions: not empty; letters, digits, underscores and
// slashes, "~" only as a leading "~" or "~/"; no token starting with a
// digit, no empty token ("//"), no trailing slash.
func ValidateTopicName(topic string) error {
	bad := func(why string, a ...any) error {
		return fmt.Errorf("topic name %q: %w: %s", topic, ErrInvalidName, fmt.Sprintf(why, a...))
	}
	rest := topic
	switch {
	case topic == "":
		return bad("empty")
	case topic == "~" || topic == "/":
		return nil
	case strings.HasPrefix(topic, "~/"):
		rest = topic[2:]
	case strings.HasPrefix(topic, "/"):
		rest = topic[1:]
	}
	if strings.HasSuffix(topic, "/") {
		return bad("ends with /")
	}
	for tok := range strings.SplitSeq(rest, "/") {
		switch {
		case tok == "":
			return bad("empty token (//)")
		case tok[0] >= '0' && tok[0] <= '9':
			return bad("token %q starts with a digit", tok)
		}
		for _, c := range tok {
			if c == '{' || c == '}' {
				return bad("substitutions ({...}) are not supported")
			}
			if !isNameChar(c) {
				return bad("%q is not allowed (letters, digits, _ and /; ~ only at the start)", c)
			}
		}
	}
	return nil
}

// ExpandTopicName returns topic fully qualified for the node
// namespace/name, as rcl_expand_topic_name does: an absolute name stays,
// "~" and "~/x" are the node's private names (/ns/name, /ns/name/x), and
// a relative name is put in the namespace.
func ExpandTopicName(topic, namespace, name string) (string, error) {
	if err := ValidateTopicName(topic); err != nil {
		return "", err
	}
	ns := strings.TrimSuffix(namespace, "/")
	switch {
	case strings.HasPrefix(topic, "/"):
		return topic, nil
	case topic == "~":
		return ns + "/" + name, nil
	case strings.HasPrefix(topic, "~/"):
		return ns + "/" + name + topic[1:], nil
	}
	return ns + "/" + topic, nil
}

// ParseROSArgs splits args at ROS 2's "--ros-args" marker, as rcl does:
// everything from "--ros-args" up to a lone "--" (or the end) is ROS
// arguments; the rest is returned unchanged. Understood are
// "-r __node:=NAME" and "-r __ns:=/NS" (also "--remap", and the older
// "__node:=" form without -r), topic remappings "-r FROM:=TO", and
// "-p use_sim_time:=true|false" (also "--param"); "--log-level LEVEL" is
// accepted and has no effect (simclock has no ROS logger). Other
// arguments and parameters are rejected with an error naming them, rather
// than silently ignored.
func ParseROSArgs(args []string) (ROSArgs, []string, error) {
	var ra ROSArgs
	var rest []string
	in := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !in {
			if a == "--ros-args" {
				in = true
				continue
			}
			rest = append(rest, a)
			continue
		}
		switch a {
		case "--":
			in = false
			continue
		case "--ros-args":
			continue
		case "--log-level":
			if i+1 >= len(args) {
				return ra, nil, fmt.Errorf("--ros-args: %s needs a value", a)
			}
			i++
		case "-r", "--remap", "-p", "--param":
			if i+1 >= len(args) {
				return ra, nil, fmt.Errorf("--ros-args: %s needs a value", a)
			}
			i++
			if err := ra.apply(a, args[i]); err != nil {
				return ra, nil, err
			}
		default:
			if strings.HasPrefix(a, "__node:=") || strings.HasPrefix(a, "__ns:=") {
				if err := ra.apply("-r", a); err != nil {
					return ra, nil, err
				}
				continue
			}
			return ra, nil, fmt.Errorf("--ros-args: %q is not supported here (want -r __node:=NAME, -r __ns:=/NS, -r TOPIC:=TOPIC or -p use_sim_time:=BOOL)", a)
		}
	}
	return ra, rest, nil
}

func (ra *ROSArgs) apply(flag, v string) error {
	key, val, ok := strings.Cut(v, ":=")
	if !ok {
		return fmt.Errorf("--ros-args %s %q: want from:=to", flag, v)
	}
	switch {
	case (flag == "-r" || flag == "--remap") && key == "__node":
		if err := ValidateName(val); err != nil {
			return fmt.Errorf("--ros-args %s %s: %w", flag, v, err)
		}
		ra.Name = val
	case (flag == "-r" || flag == "--remap") && key == "__ns":
		ns, err := NormalizeNamespace(val)
		if err != nil {
			return fmt.Errorf("--ros-args %s %s: %w", flag, v, err)
		}
		ra.Namespace = ns
	case (flag == "-p" || flag == "--param") && key == UseSimTimeParam:
		switch strings.ToLower(val) {
		case "true":
			b := true
			ra.UseSimTime = &b
		case "false":
			b := false
			ra.UseSimTime = &b
		default:
			return fmt.Errorf("--ros-args %s %s: %s must be true or false", flag, v, UseSimTimeParam)
		}
	case flag == "-r" || flag == "--remap":
		if strings.HasPrefix(key, "__") {
			return fmt.Errorf("--ros-args %s %s: only __node and __ns are supported among the special names", flag, v)
		}
		if strings.Contains(key, ":") {
			return fmt.Errorf("--ros-args %s %s: node-specific remappings (NODE:FROM:=TO) are not supported", flag, v)
		}
		for _, n := range []string{key, val} {
			if err := ValidateTopicName(n); err != nil {
				return fmt.Errorf("--ros-args %s %s: %w", flag, v, err)
			}
		}
		ra.Remaps = append(ra.Remaps, Remap{From: key, To: val})
	default:
		return fmt.Errorf("--ros-args %s %s: only use_sim_time is supported among the parameters", flag, v)
	}
	return nil
}
