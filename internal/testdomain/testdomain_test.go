package testdomain

import (
	"strings"
	"testing"
)

func TestID(t *testing.T) {
	t.Setenv(Env, "")
	if got := ID(61); got != 61 {
		t.Errorf("no offset: ID(61) = %d", got)
	}
	t.Setenv(Env, " 40 ")
	if got := ID(61); got != 101 {
		t.Errorf("offset 40: ID(61) = %d", got)
	}
	for _, tc := range []struct{ env, want string }{
		{"x", "want a number"},
		{"-1", "want a number"},
		{"100", "past 232"},
	} {
		t.Setenv(Env, tc.env)
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(strings.ToLower(strings.TrimSpace(toString(r))), tc.want) || !strings.Contains(toString(r), Env) {
					t.Errorf("%s=%q: ID(171) panicked with %v, want a message naming %s with %q", Env, tc.env, r, Env, tc.want)
				}
			}()
			ID(171)
		}()
	}
}

func toString(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return ""
}
