package ros2msg

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

// A TimeField is one builtin_interfaces/Time value found in a message.
type TimeField struct {
	// Path is the field path from the root, with "[]" for array elements
	// ("header.stamp", "transforms[].header.stamp", "info.stamp").
	Path string
	// Index is the element index of the innermost array on the path, or -1.
	Index int
	// Header is true when the Time is the stamp of a std_msgs/Header.
	Header bool
	// Owner names the field in the type that declares it, wherever that
	// type is nested: "sensor_msgs/TimeReference.time_ref",
	// "std_msgs/Header.stamp" (canonical type name, a dot, the field).
	Owner string
	// Offset is the byte offset of the sec field in the payload.
	Offset int
	Time   timemsg.Time
}

// A planNode mirrors one occurrence of a Time-bearing type in the schema
// tree, with every field path precomputed so Times allocates nothing per
// message.
type planNode struct {
	t      *Type
	path   string
	header bool   // this node is a Time that is the stamp of a Header
	owner  string // the field of this node's Time in its type: "std_msgs/Header.stamp"
	fields []planField
}

type planField struct {
	f     *Field
	path  string    // "a.b"
	epath string    // "a.b[]"
	child *planNode // nil when no Time is reachable through the field
}

// maxPlanNodes bounds the plan of a pathological schema whose Time fields
// multiply through nesting.
const maxPlanNodes = 1 << 14

func buildPlan(t *Type, path, owner string, header bool, budget *int) (*planNode, error) {
	*budget--
	if *budget < 0 {
		return nil, &SyntaxError{Type: t.Name, Text: path, Err: fmt.Errorf("%w: more than %d nested Time fields", ErrSyntax, maxPlanNodes)}
	}
	n := &planNode{t: t, path: path, owner: owner, header: header}
	if t.Name == TimeType {
		return n, nil
	}
	for i := 0; i <= t.lastTF; i++ {
		f := &t.Fields[i]
		pf := planField{f: f, path: join(path, f.Name)}
		pf.epath = pf.path
		if f.Array != Scalar {
			pf.epath += "[]"
		}
		if f.Kind == Message && (f.Type.hasTime || f.TypeName == TimeType) {
			c, err := buildPlan(f.Type, pf.epath, t.Name+"."+f.Name, t.Name == HeaderType && f.Name == "stamp", budget)
			if err != nil {
				return nil, err
			}
			pf.child = c
		}
		n.fields = append(n.fields, pf)
	}
	return n, nil
}

// Times calls fn for every builtin_interfaces/Time in the CDR payload
// data, in serialization order. It decodes only as far as the last field
// that can hold a Time, so trailing bytes are not checked; use Decode to
// validate a whole message. A malformed payload returns a
// *cdr.DecodeError naming the offset and field; fn has then been called
// for every Time before the problem.
func (s *Schema) Times(data []byte, fn func(TimeField)) error {
	var buf [8]TimeField
	ts, err := s.AppendTimes(buf[:0], data)
	for _, tf := range ts {
		fn(tf)
	}
	return err
}

// AppendTimes is Times that appends the Times found to dst and returns
// the extended slice. It allocates nothing when dst has room.
func (s *Schema) AppendTimes(dst []TimeField, data []byte) ([]TimeField, error) {
	if s.plan == nil {
		return dst, nil
	}
	// Most stamped types (a Header first) hold their Times at offsets
	// that no field before them can move: read them there, when the
	// payload is little-endian CDR long enough for the walk below to
	// read the same bytes and succeed.
	if l := s.fixed; l != nil && l.Reads(data) {
		for i, tf := range l.Times {
			tf.Time = l.Time(data, i)
			dst = append(dst, tf)
		}
		return dst, nil
	}
	var r cdr.Reader
	if err := r.Reset(data); err != nil {
		return dst, err
	}
	walkPlan(&r, s.plan, -1, false, &dst)
	return dst, r.Err()
}

// A FixedLayout is where the Times of a schema lie when each lies at an
// offset that no field before it can move (a Header first, fixed-size
// fields): a plan computed once per schema, so that a reader of many
// messages reads each Time at its offset instead of walking the schema.
type FixedLayout struct {
	// Times are the schema's Times in the order AppendTimes gives them,
	// with Path, Index (-1), Header, Owner and Offset set; Time is zero.
	Times []TimeField
	// End is where the last Time ends: a payload at least that long is
	// read at these offsets without error.
	End int
}

// Fixed returns the schema's fixed layout, or nil when its Times do not
// all lie at fixed offsets (a string or a sequence before one, Times in
// an array) or it has none. The layout is the schema's own: read it, do
// not modify it.
func (s *Schema) Fixed() *FixedLayout { return s.fixed }

// Reads reports whether the Times of payload data lie at l's offsets,
// where AppendTimes reads them: little-endian CDR, at least End bytes.
func (l *FixedLayout) Reads(data []byte) bool {
	return len(data) >= l.End && data[0] == 0 && data[1] == 1
}

// Time returns the i-th Time of a payload that l Reads.
func (l *FixedLayout) Time(data []byte, i int) timemsg.Time {
	off := l.Times[i].Offset
	return timemsg.Time{Sec: int32(binary.LittleEndian.Uint32(data[off:])), Nanosec: binary.LittleEndian.Uint32(data[off+4:])}
}

// fixedLayout lays out the plan from the root as walkPlan reads it, at
// offsets known before any payload: it fails (ok false) at the first
// field whose size depends on the payload (a string, a sequence) or that
// holds Times in an array, before the last Time. end is where the last
// Time ends: a payload at least that long is read by walkPlan without
// error, at exactly these offsets.
func fixedLayout(root *planNode) (times []TimeField, end int, ok bool) {
	l := layout{off: cdr.HeaderSize}
	if !l.plan(root, false) {
		return nil, 0, false
	}
	return l.times, l.off, true
}

// layout is walkPlan, skipField and skipType on offsets instead of bytes.
type layout struct {
	off   int
	times []TimeField
}

func (l *layout) align(n int) {
	if n > 1 {
		body := l.off - cdr.HeaderSize
		l.off += (n - body%n) % n
	}
}

func (l *layout) plan(n *planNode, full bool) bool {
	if n.t.Name == TimeType && len(n.fields) == 0 {
		l.align(4)
		l.times = append(l.times, TimeField{Path: n.path, Index: -1, Header: n.header, Owner: n.owner, Offset: l.off})
		l.off += 8
		return true
	}
	last := len(n.fields) - 1
	for i := range n.fields {
		pf := &n.fields[i]
		switch {
		case pf.child == nil:
			if !l.field(pf.f) {
				return false
			}
		case pf.f.Array == Scalar:
			if !l.plan(pf.child, full || i != last) {
				return false
			}
		default:
			return false // Times in an array: their count and Index vary
		}
	}
	if full {
		for i := len(n.fields); i < len(n.t.Fields); i++ {
			if !l.field(&n.t.Fields[i]) {
				return false
			}
		}
	}
	return true
}

func (l *layout) field(f *Field) bool {
	switch f.Array {
	case Scalar:
		return l.one(f)
	case Fixed:
		if sz := f.Kind.Size(); sz > 0 {
			if f.Len > 0 {
				l.align(sz)
				l.off += f.Len * sz
			}
			return true
		}
		for range f.Len {
			if !l.one(f) {
				return false
			}
		}
		return true
	}
	return false // a sequence: its length is in the payload
}

func (l *layout) one(f *Field) bool {
	switch f.Kind {
	case String, WString:
		return false
	case Message:
		if len(f.Type.Fields) == 0 {
			l.off++ // the uint8 rosidl adds to an empty struct
			return true
		}
		for i := range f.Type.Fields {
			if !l.field(&f.Type.Fields[i]) {
				return false
			}
		}
		return true
	}
	sz := f.Kind.Size()
	l.align(sz)
	l.off += sz
	return true
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// walkPlan reads one value of n's type. With full unset it stops after the
// last field through which a Time is reachable; with full set (a value
// that more data follows) it consumes the whole value.
func walkPlan(r *cdr.Reader, n *planNode, index int, full bool, out *[]TimeField) {
	t := n.t
	if t.Name == TimeType && len(n.fields) == 0 {
		r.Align(4)
		off := r.Offset()
		sec := r.Int32(n.path)
		nsec := r.Uint32(n.path)
		if r.Err() == nil {
			*out = append(*out, TimeField{Path: n.path, Index: index, Header: n.header, Owner: n.owner, Offset: off, Time: timemsg.Time{Sec: sec, Nanosec: nsec}})
		}
		return
	}
	last := len(n.fields) - 1
	for i := range n.fields {
		if r.Err() != nil {
			return
		}
		pf := &n.fields[i]
		if pf.child == nil {
			skipField(r, pf.f, pf.path)
			continue
		}
		more := full || i != last
		if pf.f.Array == Scalar {
			walkPlan(r, pf.child, index, more, out)
			continue
		}
		cnt := arrayLen(r, pf.f, pf.path)
		for j := 0; j < cnt && r.Err() == nil; j++ {
			walkPlan(r, pf.child, j, more || j != cnt-1, out)
		}
	}
	if full {
		for i := len(n.fields); i < len(t.Fields) && r.Err() == nil; i++ {
			skipField(r, &t.Fields[i], n.path)
		}
	}
}

// seqLen is cdr.Reader.SequenceLength without building a field name on
// every call: it reads a length and checks that length*minElemSize bytes
// remain.
func seqLen(r *cdr.Reader, minElemSize int, path string) int {
	n := r.Uint32(path)
	if r.Err() != nil {
		return 0
	}
	if minElemSize > 0 && uint64(n)*uint64(minElemSize) > uint64(r.Remaining()) {
		r.Fail(path, fmt.Errorf("%w: length %d exceeds the %d bytes left", io.ErrUnexpectedEOF, n, r.Remaining()))
		return 0
	}
	return int(n)
}

// arrayLen returns the element count of an array field, reading the
// length of a sequence and checking it against the bytes left.
func arrayLen(r *cdr.Reader, f *Field, path string) int {
	minElem := minElemSize(f)
	if f.Array == Fixed {
		if minElem > 0 && f.Len > r.Remaining()/minElem+1 {
			r.Fail(path, fmt.Errorf("%w: array of %d elements exceeds the %d bytes left", io.ErrUnexpectedEOF, f.Len, r.Remaining()))
			return 0
		}
		return f.Len
	}
	n := seqLen(r, minElem, path)
	if f.Array == Bounded && n > f.Len {
		r.Fail(path, fmt.Errorf("%w: sequence of %d elements exceeds its bound %d", cdr.ErrMalformed, n, f.Len))
		return 0
	}
	return n
}

func minElemSize(f *Field) int {
	switch f.Kind {
	case String, WString:
		return 4
	case Message:
		return f.Type.minSize
	}
	return f.Kind.Size()
}

// skipField consumes one field without building values.
func skipField(r *cdr.Reader, f *Field, path string) {
	if f.Array == Scalar {
		skipOne(r, f, path)
		return
	}
	n := arrayLen(r, f, path)
	if sz := f.Kind.Size(); sz > 0 {
		if n > 0 {
			r.Align(sz)
			r.Bytes(n*sz, path)
		}
		return
	}
	for j := 0; j < n && r.Err() == nil; j++ {
		skipOne(r, f, path)
	}
}

func skipOne(r *cdr.Reader, f *Field, path string) {
	switch f.Kind {
	case String:
		n := seqLen(r, 1, path)
		r.Bytes(n, path)
	case WString:
		n := seqLen(r, 2, path)
		r.Bytes(2*n, path)
	case Message:
		skipType(r, f.Type, path)
	default:
		sz := f.Kind.Size()
		r.Align(sz)
		r.Bytes(sz, path)
	}
}

func skipType(r *cdr.Reader, t *Type, path string) {
	if len(t.Fields) == 0 {
		r.Uint8(path)
		return
	}
	for i := range t.Fields {
		if r.Err() != nil {
			return
		}
		skipField(r, &t.Fields[i], path)
	}
}

// A Value is a decoded message: field name to value, in a map. Primitive
// values are bool, uint8 (byte, char, uint8), int8, int16, uint16, int32,
// uint32, int64, uint64, float32, float64 and string; arrays are slices of
// those ([]any for nested messages); nested messages are Value.
type Value map[string]any

// Decode fully decodes the CDR payload data into a Value, checking every
// length and string, and that at most 3 bytes of padding follow the
// message. Errors are *cdr.DecodeError (offset and field path) wrapping
// io.ErrUnexpectedEOF, cdr.ErrMalformed or ErrTrailingData.
func (s *Schema) Decode(data []byte) (Value, error) {
	r, err := cdr.NewReader(data)
	if err != nil {
		return nil, err
	}
	v := decodeType(r, s.Root, "")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if r.Remaining() > 3 {
		return nil, &cdr.DecodeError{Offset: r.Offset(), Field: s.Root.Name,
			Err: fmt.Errorf("%w: %d bytes", ErrTrailingData, r.Remaining())}
	}
	return v, nil
}

func decodeType(r *cdr.Reader, t *Type, path string) Value {
	v := make(Value, len(t.Fields))
	if len(t.Fields) == 0 {
		r.Uint8(join(path, "structure_needs_at_least_one_member"))
		return v
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		fp := join(path, f.Name)
		if f.Array == Scalar {
			v[f.Name] = decodeOne(r, f, fp)
		} else {
			n := arrayLen(r, f, fp)
			if r.Err() != nil {
				return v
			}
			if f.Kind == Uint8 || f.Kind == Byte {
				b := r.Bytes(n, fp)
				v[f.Name] = append([]byte(nil), b...)
			} else {
				a := make([]any, 0, n)
				for j := 0; j < n && r.Err() == nil; j++ {
					a = append(a, decodeOne(r, f, fp+"["+strconv.Itoa(j)+"]"))
				}
				v[f.Name] = a
			}
		}
		if r.Err() != nil {
			return v
		}
	}
	return v
}

func decodeOne(r *cdr.Reader, f *Field, path string) any {
	switch f.Kind {
	case Bool:
		return r.Bool(path)
	case Byte, Char, Uint8:
		return r.Uint8(path)
	case Int8:
		return int8(r.Uint8(path))
	case Int16:
		return int16(r.Uint16(path))
	case Uint16:
		return r.Uint16(path)
	case Int32:
		return r.Int32(path)
	case Uint32:
		return r.Uint32(path)
	case Int64:
		return r.Int64(path)
	case Uint64:
		return r.Uint64(path)
	case Float32:
		return r.Float32(path)
	case Float64:
		return r.Float64(path)
	case String:
		s := r.String(path)
		if f.StringBound > 0 && len(s) > f.StringBound {
			r.Fail(path, fmt.Errorf("%w: string of %d bytes exceeds its bound %d", cdr.ErrMalformed, len(s), f.StringBound))
		}
		return s
	case WString:
		// rmw_cyclonedds: uint32 count of UTF-16 code units, then the units, no NUL.
		n := r.SequenceLength(2, path)
		units := make([]uint16, 0, n)
		for j := 0; j < n && r.Err() == nil; j++ {
			units = append(units, r.Uint16(path))
		}
		return string(utf16.Decode(units))
	case Message:
		return decodeType(r, f.Type, path)
	}
	r.Fail(path, fmt.Errorf("%w: field of kind %v", cdr.ErrMalformed, f.Kind))
	return nil
}
