package ros2msg

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walked is s without its fixed layout: AppendTimes walks the plan.
func walked(s *Schema) *Schema {
	w := *s
	w.fixed = nil
	return &w
}

// stampedShipped parses every shipped type that holds a Time.
func stampedShipped(tb testing.TB) []*Schema {
	var out []*Schema
	for _, name := range ShippedTypes() {
		s, err := ParseShipped(name)
		if err != nil {
			tb.Fatal(err)
		}
		if s.plan != nil {
			out = append(out, s)
		}
	}
	return out
}

// agree checks that AppendTimes gives the same Times and error with the
// fixed layout as by walking the plan.
func agree(t *testing.T, s *Schema, payload []byte) {
	t.Helper()
	got, gerr := s.AppendTimes(nil, payload)
	want, werr := walked(s).AppendTimes(nil, payload)
	if diff := cmp.Diff(want, got); diff != "" || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%s, payload % x: fixed layout differs from the walk (-walk +fixed):\n%s\nerrors: walk %v, fixed %v", s.Name, payload, diff, werr, gerr)
	}
}

// The types whose Times no field can move are read at fixed offsets, and
// give exactly what the walk gives on any payload: long enough, cut short,
// big-endian or not CDR at all.
func TestFixedLayoutAgreesWithWalk(t *testing.T) {
	fixed := map[string]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range stampedShipped(t) {
		if s.fixed != nil {
			fixed[Canonical(s.Name)] = true
		}
		end := 16
		if s.fixed != nil {
			end = max(s.fixed.End, 16)
		}
		for _, n := range []int{0, 3, 4, end - 1, end, end + 1, end + 37, 2 * end} {
			for _, head := range [][]byte{{0, 1, 0, 0}, {0, 0, 0, 0}, {0, 9, 0, 0}} {
				p := make([]byte, max(n, 0))
				for i := range p {
					p[i] = byte(rng.Uint32())
				}
				copy(p, head[:min(len(p), 4)])
				agree(t, s, p)
			}
		}
	}
	for _, name := range []string{"sensor_msgs/Imu", "sensor_msgs/LaserScan", "nav_msgs/Odometry", "rosgraph_msgs/Clock", "std_msgs/Header", "geometry_msgs/PoseStamped"} {
		if !fixed[name] {
			t.Errorf("%s is walked; its Times are at fixed offsets", name)
		}
	}
	for _, name := range []string{"tf2_msgs/TFMessage", "visualization_msgs/MarkerArray"} {
		if fixed[name] {
			t.Errorf("%s has a fixed layout; its Times are in arrays", name)
		}
	}
	if len(fixed) < 40 {
		t.Errorf("%d shipped types with a fixed layout; the Header-first ones alone are more", len(fixed))
	}
}

// A stamp after a fixed-size prefix (alignment included) is found where
// the walk finds it; one after a string is not at a fixed offset.
func TestFixedLayoutOffsets(t *testing.T) {
	for _, tc := range []struct {
		text    string
		offsets []int // nil: no fixed layout
	}{
		{"builtin_interfaces/Time t\n", []int{4}},
		{"uint8 a\nbuiltin_interfaces/Time t\n", []int{8}},
		{"uint8 a\nfloat64 b\nbuiltin_interfaces/Time t\n", []int{20}},
		{"uint8[3] a\nint16 b\nbuiltin_interfaces/Time t\nbuiltin_interfaces/Time u\n", []int{12, 20}},
		{"std_msgs/Header h\nbuiltin_interfaces/Time t\n", nil},
		{"builtin_interfaces/Time t\nstring s\nbuiltin_interfaces/Time u\n", nil},
		{"builtin_interfaces/Time[2] t\n", nil},
		{"builtin_interfaces/Time t\nstring after\n", []int{4}},
	} {
		s, err := Parse("p/msg/T", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var offs []int
		if l := s.Fixed(); l != nil {
			for _, ft := range l.Times {
				offs = append(offs, ft.Offset)
			}
		}
		if !slices.Equal(offs, tc.offsets) {
			t.Errorf("%q: fixed offsets %v, want %v", tc.text, offs, tc.offsets)
		}
		p := make([]byte, 64)
		p[1] = 1
		for i := 4; i < len(p); i++ {
			p[i] = byte(i)
		}
		agree(t, s, p)
	}
}

// FuzzFixedTimes: on any payload, every shipped stamped type gives the
// same Times and error through its fixed layout as through the walk.
func FuzzFixedTimes(f *testing.F) {
	schemas := stampedShipped(f)
	f.Add(uint16(0), []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0})
	f.Add(uint16(7), []byte{0, 1, 0, 0})
	f.Fuzz(func(t *testing.T, which uint16, payload []byte) {
		agree(t, schemas[int(which)%len(schemas)], payload)
	})
}
