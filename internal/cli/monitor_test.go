package cli

import (
	"testing"
)

func TestParseExpectRTF(t *testing.T) {
	for _, tc := range []struct {
		in        string
		want, tol float64
		err       bool
	}{
		{"1", 1, 0.1, false},
		{"2±0.2", 2, 0.2, false},
		{"2+-0.5", 2, 0.5, false},
		{"0.5±10%", 0.5, 0.05, false},
		{" 1 ± 0 ", 1, 0, false},
		{"fast", 0, 0, true},
		{"-1", 0, 0, true},
		{"1±x", 0, 0, true},
		{"1±-1", 0, 0, true},
		{"NaN", 0, 0, true},
	} {
		want, tol, err := parseExpectRTF(tc.in)
		if (err != nil) != tc.err || want != tc.want || tol != tc.tol {
			t.Errorf("parseExpectRTF(%q) = %v, %v, %v; want %v, %v, error %v", tc.in, want, tol, err, tc.want, tc.tol, tc.err)
		}
	}
}
