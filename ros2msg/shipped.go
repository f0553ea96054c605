package ros2msg

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

// interfaces holds the .msg files of the common interface packages
// (interfaces/README.md says which, from where, under which licence).
//
//go:embed interfaces/*/msg/*.msg
var interfaces embed.FS

var shipped = sync.OnceValue(func() map[string]string {
	defs := map[string]string{}
	_ = fs.WalkDir(interfaces, "interfaces", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".msg") {
			return err
		}
		b, err := interfaces.ReadFile(p)
		if err != nil {
			return err
		}
		// interfaces/<pkg>/msg/<Type>.msg
		parts := strings.Split(p, "/")
		defs[parts[1]+"/"+strings.TrimSuffix(path.Base(p), ".msg")] = string(b)
		return nil
	})
	return defs
})

// ShippedDefinition returns the .msg text that simclock ships for a type
// of the common interface packages (ROS 2 Jazzy: the core ones such as
// std_msgs, sensor_msgs, geometry_msgs, nav_msgs and tf2_msgs, and widely
// used ones such as control_msgs, vision_msgs, nav2_msgs and
// rcl_interfaces; interfaces/README.md lists them all). name may be
// "sensor_msgs/msg/Imu" or "sensor_msgs/Imu".
func ShippedDefinition(name string) (string, bool) {
	def, ok := shipped()[Canonical(name)]
	return def, ok
}

// ShippedTypes lists the shipped types, as "pkg/msg/Type", sorted.
func ShippedTypes() []string {
	out := make([]string, 0, len(shipped()))
	for name := range shipped() {
		i := strings.IndexByte(name, '/')
		out = append(out, name[:i]+"/msg"+name[i:])
	}
	sort.Strings(out)
	return out
}

// ParseShipped parses a type from the shipped definitions alone, for a
// recording or a graph that names a type without defining it. A type that
// is not shipped is ErrUnknownType: simclock never guesses a layout.
func ParseShipped(name string) (*Schema, error) {
	if _, ok := ShippedDefinition(name); !ok {
		return nil, fmt.Errorf("ros2msg: %s: no definition recorded or shipped: %w", name, ErrUnknownType)
	}
	return Parse(name, nil)
}

// knownDefinition is the definition used for a type a schema refers to but
// does not define: the small built-in set first, then the shipped files.
func knownDefinition(name string) (string, bool) {
	if def, ok := wellKnown[name]; ok {
		return def, true
	}
	return ShippedDefinition(name)
}
