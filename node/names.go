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
}

// ParseROSArgs splits args at ROS 2's "--ros-args" marker, as rcl does:
// everything from "--ros-args" up to a lone "--" (or the end) is ROS
// arguments; the rest is returned unchanged. Understood are
// "-r __node:=NAME" and "-r __ns:=/NS" (also "--remap", and the older
// "__node:=" form without -r), and "-p use_sim_time:=true|false" (also
// "--param"). Other remappings and parameters are rejected with an error
// naming them, rather than silently ignored.
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
			return ra, nil, fmt.Errorf("--ros-args: %q is not supported here (want -r __node:=NAME, -r __ns:=/NS or -p use_sim_time:=BOOL)", a)
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
	default:
		return fmt.Errorf("--ros-args %s %s: only __node, __ns and use_sim_time are supported", flag, v)
	}
	return nil
}
