package ros2msg

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

const sep = "\n================================================================================\n"

// logSchema is rcl_interfaces/msg/Log exactly as talker.mcap stores it.
const logSchema = "byte DEBUG=10\nbyte INFO=20\nbyte WARN=30\nbyte ERROR=40\nbyte FATAL=50\n" +
	"builtin_interfaces/Time stamp\nuint8 level\nstring name\nstring msg\nstring file\nstring function\nuint32 line" +
	sep + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"

func TestParseFields(t *testing.T) {
	text := `# a comment line
int32[3] fixed
float64[<=5] bounded   # trailing comment
string<=10 name
string<=4[<=2] names
wstring w
Header header
uint8 level 3
string greeting "hi # not a comment"
string S=a # kept
int32 X = -7 # dropped
`
	s, err := Parse("pkg/msg/Thing", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Root.Name != "pkg/Thing" {
		t.Errorf("root name %q, want pkg/Thing", s.Root.Name)
	}
	type fs struct {
		Name, TypeName string
		Kind           Kind
		Array          ArrayKind
		Len, Bound     int
		Default        string
	}
	var got []fs
	for _, f := range s.Root.Fields {
		got = append(got, fs{f.Name, f.TypeName, f.Kind, f.Array, f.Len, f.StringBound, f.Default})
	}
	want := []fs{
		{"fixed", "int32", Int32, Fixed, 3, 0, ""},
		{"bounded", "float64", Float64, Bounded, 5, 0, ""},
		{"name", "string", String, Scalar, 0, 10, ""},
		{"names", "string", String, Bounded, 2, 4, ""},
		{"w", "wstring", WString, Scalar, 0, 0, ""},
		{"header", "std_msgs/Header", Message, Scalar, 0, 0, ""},
		{"level", "uint8", Uint8, Scalar, 0, 0, "3"},
		{"greeting", "string", String, Scalar, 0, 0, `"hi # not a comment"`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	wantC := []Constant{{"S", String, "a # kept"}, {"X", Int32, "-7"}}
	if d := cmp.Diff(wantC, s.Root.Constants); d != "" {
		t.Errorf("constants (-want +got):\n%s", d)
	}
	if !s.Root.HasTime() {
		t.Error("HasTime false for a type with a Header")
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, text string
		want       error
		line       int
	}{
		{"no name", "int32\n", ErrSyntax, 1},
		{"bad array", "int32[x] a\n", ErrSyntax, 1},
		{"zero array", "int32[0] a\n", ErrSyntax, 1},
		{"bound on int", "int32<=3 a\n", ErrSyntax, 1},
		{"bad field name", "int32 9a\n", ErrSyntax, 1},
		{"array constant", "int32[2] A=1\n", ErrSyntax, 1},
		{"unknown type", "int32 a\nfoo/Bar b\n", ErrUnknownType, 2},
		{"duplicate", "int32 a\nint32 a\n", ErrSyntax, 2},
		{"missing MSG", "int32 a" + sep + "int32 b\n", ErrSyntax, 3},
		{"bad Time", "builtin_interfaces/Time t" + sep + "MSG: builtin_interfaces/Time\nint64 nanoseconds\n", ErrSyntax, 0},
		{"recursive", "B b" + sep + "MSG: p/B\nA a" + sep + "MSG: p/A\nB b\n", ErrRecursive, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("p/msg/A", []byte(tc.text))
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			se, ok := errors.AsType[*SyntaxError](err)
			if !ok {
				t.Fatalf("got %T, want *SyntaxError", err)
			}
			if tc.line != 0 && se.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", se.Line, tc.line, err)
			}
		})
	}
}

// TestServiceEventFromSrv checks the Iron-era schema of a service event
// (only_services.mcap): the .srv text expands to info/request/response.
func TestServiceEventFromSrv(t *testing.T) {
	s, err := Parse("example_interfaces/srv/AddTwoInts_Event", []byte("int64 a\nint64 b\n---\nint64 sum\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Root.Fields {
		names = append(names, f.Name+":"+f.TypeName)
	}
	want := []string{"info:service_msgs/ServiceEventInfo", "request:example_interfaces/AddTwoInts_Request", "response:example_interfaces/AddTwoInts_Response"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("fields (-want +got):\n%s", d)
	}
	w := cdr.NewWriter(64)
	w.Uint8(1) // event_type
	w.Int32(1697521953)
	w.Uint32(726475197)
	w.RawBytes(make([]byte, 16)) // client_gid
	w.Int64(7)                   // sequence_number
	w.Uint32(1)                  // request: one element
	w.Int64(2)
	w.Int64(3)
	w.Uint32(0) // no response
	var got []TimeField
	if err := s.Times(w.Bytes(), func(tf TimeField) { got = append(got, tf) }); err != nil {
		t.Fatal(err)
	}
	wantT := []TimeField{{Path: "info.stamp", Index: -1, Owner: "service_msgs/ServiceEventInfo.stamp", Offset: 8, Time: timemsg.Time{Sec: 1697521953, Nanosec: 726475197}}}
	if d := cmp.Diff(wantT, got); d != "" {
		t.Errorf("times (-want +got):\n%s", d)
	}
	v, err := s.Decode(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	req := v["request"].([]any)[0].(Value)
	if req["a"] != int64(2) || req["b"] != int64(3) {
		t.Errorf("request %v, want a=2 b=3", req)
	}
}

// tfSchema is a tf2_msgs/TFMessage-like type: Times inside a sequence of
// nested messages, after strings that shift alignment.
const tfSchema = "TransformStamped[] transforms" + sep +
	"MSG: geometry_msgs/TransformStamped\nstd_msgs/Header header\nstring child_frame_id\nfloat64[7] transform" + sep +
	"MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" + sep +
	"MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"

func tfPayload(stamps ...timemsg.Time) []byte {
	w := cdr.NewWriter(256)
	w.Uint32(uint32(len(stamps)))
	for i, st := range stamps {
		w.Int32(st.Sec)
		w.Uint32(st.Nanosec)
		w.String(strings.Repeat("m", i+1)) // frame_id, odd lengths
		w.String("c")                      // child_frame_id
		for k := range 7 {
			w.Float64(float64(k))
		}
	}
	return w.Bytes()
}

func TestTimesNested(t *testing.T) {
	s, err := Parse("geometry_msgs/msg/TFMessage", []byte(tfSchema))
	if err != nil {
		t.Fatal(err)
	}
	stamps := []timemsg.Time{{Sec: 1, Nanosec: 2}, {Sec: 0, Nanosec: 0}, {Sec: 5, Nanosec: 999999999}}
	var got []TimeField
	if err := s.Times(tfPayload(stamps...), func(tf TimeField) { got = append(got, tf) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d times, want 3", len(got))
	}
	for i, tf := range got {
		if tf.Path != "transforms[].header.stamp" || tf.Index != i || !tf.Header || tf.Owner != "std_msgs/Header.stamp" || tf.Time != stamps[i] {
			t.Errorf("time %d = %+v, want transforms[].header.stamp index %d header %v", i, tf, i, stamps[i])
		}
	}
	v, err := s.Decode(tfPayload(stamps...))
	if err != nil {
		t.Fatal(err)
	}
	tr := v["transforms"].([]any)
	if fid := tr[2].(Value)["header"].(Value)["frame_id"]; fid != "mmm" {
		t.Errorf("frame_id %v, want mmm", fid)
	}
}

func TestDecodeErrors(t *testing.T) {
	s, err := Parse("geometry_msgs/msg/TFMessage", []byte(tfSchema))
	if err != nil {
		t.Fatal(err)
	}
	good := tfPayload(timemsg.Time{Sec: 1}, timemsg.Time{Sec: 2})
	t.Run("truncated", func(t *testing.T) {
		for n := 0; n < len(good); n++ {
			_, err := s.Decode(good[:n])
			if err == nil {
				t.Fatalf("Decode of %d/%d bytes: no error", n, len(good))
			}
			de, ok := errors.AsType[*cdr.DecodeError](err)
			if !ok {
				t.Fatalf("got %T, want *cdr.DecodeError", err)
			}
			if de.Offset > n {
				t.Errorf("offset %d past the %d bytes given", de.Offset, n)
			}
		}
	})
	t.Run("huge sequence", func(t *testing.T) {
		bad := append([]byte(nil), good...)
		bad[4], bad[5], bad[6], bad[7] = 0xff, 0xff, 0xff, 0x7f
		_, err := s.Decode(bad)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("got %v, want io.ErrUnexpectedEOF", err)
		}
		if err := s.Times(bad, func(TimeField) {}); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Times: got %v, want io.ErrUnexpectedEOF", err)
		}
	})
	t.Run("trailing", func(t *testing.T) {
		_, err := s.Decode(append(append([]byte(nil), good...), 1, 2, 3, 4, 5))
		if !errors.Is(err, ErrTrailingData) {
			t.Errorf("got %v, want ErrTrailingData", err)
		}
	})
	t.Run("bounded", func(t *testing.T) {
		b, err := Parse("p/msg/B", []byte("int32[<=1] a\n"))
		if err != nil {
			t.Fatal(err)
		}
		w := cdr.NewWriter(16)
		w.Uint32(2)
		w.Int32(1)
		w.Int32(2)
		if _, err := b.Decode(w.Bytes()); !errors.Is(err, cdr.ErrMalformed) {
			t.Errorf("got %v, want cdr.ErrMalformed", err)
		}
	})
}

// TestAlignment checks XCDR1 alignment from after the header (R9, interop
// notes 1.3): a uint8 then a float64 puts 7 bytes of padding between them.
func TestAlignment(t *testing.T) {
	s, err := Parse("p/msg/A", []byte("uint8 a\nfloat64 b\nuint8 c\nbuiltin_interfaces/Time t\nint16[] d\nuint64 e\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := cdr.NewWriter(64)
	w.Uint8(7)
	w.Float64(1.5)
	w.Uint8(9)
	w.Int32(10)
	w.Uint32(20)
	w.Uint32(3)
	w.Uint16(1)
	w.Uint16(2)
	w.Uint16(3)
	w.Uint64(42)
	v, err := s.Decode(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := Value{"a": uint8(7), "b": 1.5, "c": uint8(9), "t": Value{"sec": int32(10), "nanosec": uint32(20)},
		"d": []any{int16(1), int16(2), int16(3)}, "e": uint64(42)}
	if d := cmp.Diff(want, v); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	var got []TimeField
	if err := s.Times(w.Bytes(), func(tf TimeField) { got = append(got, tf) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Offset != 4+16+4 || got[0].Time != (timemsg.Time{Sec: 10, Nanosec: 20}) {
		t.Errorf("got %+v, want t at offset 24", got)
	}
}

func TestClockAndLog(t *testing.T) {
	s, err := Parse(timemsg.ClockTypeName, []byte("builtin_interfaces/Time clock\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []TimeField
	data := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}})
	if err := s.Times(data, func(tf TimeField) { got = append(got, tf) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != "clock" || got[0].Time.Sec != 1234 || got[0].Header {
		t.Errorf("got %+v", got)
	}
	ls, err := Parse("rcl_interfaces/msg/Log", []byte(logSchema))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.Root.Constants) != 5 || ls.Root.Constants[1] != (Constant{"INFO", Byte, "20"}) {
		t.Errorf("constants %v", ls.Root.Constants)
	}
}

func TestEmptyMessage(t *testing.T) {
	s, err := Parse("test_msgs/msg/Empty", nil)
	if err != nil {
		t.Fatal(err)
	}
	// rosidl gives empty structs one uint8: 5-byte payloads in rewriter_a_0.mcap.
	if _, err := s.Decode([]byte{0, 1, 0, 0, 0}); err != nil {
		t.Errorf("Decode: %v", err)
	}
	if _, err := s.Decode([]byte{0, 1, 0, 0}); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Decode of a bare header: got %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"std_msgs/msg/Header": "std_msgs/Header", "std_msgs/Header": "std_msgs/Header",
		"a/srv/B_Event": "a/B_Event", "Header": "Header", " x/y ": "x/y",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAppendTimesAllocs(t *testing.T) {
	s, err := Parse("geometry_msgs/msg/TFMessage", []byte(tfSchema))
	if err != nil {
		t.Fatal(err)
	}
	data := tfPayload(timemsg.Time{Sec: 1}, timemsg.Time{Sec: 2})
	buf := make([]TimeField, 0, 4)
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = s.AppendTimes(buf[:0], data)
	}); n != 0 {
		t.Errorf("%v allocations per message, want 0", n)
	}
	if len(buf) != 2 || buf[1].Time.Sec != 2 {
		t.Errorf("got %+v", buf)
	}
}

// TestWellKnownWithoutText: a schema with no text for a type ros2msg knows
// (rosbag2 stores none when it finds no definition) uses the built-in one.
func TestWellKnownWithoutText(t *testing.T) {
	s, err := Parse("std_msgs/msg/Header", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Root.Fields) != 2 || s.Root.Fields[0].TypeName != TimeType || !s.Root.HasTime() {
		t.Errorf("fields %+v", s.Root.Fields)
	}
	if s, err := Parse("pkg/msg/Unknown", nil); err != nil || len(s.Root.Fields) != 0 {
		t.Errorf("an unknown empty type: %v, %v", s, err)
	}
}
