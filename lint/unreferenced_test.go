package lint

import "testing"

// TestCppNamedIn: declarations and definitions of m do not name it; calls,
// member pointers and virtual declarations do.
func TestCppNamedIn(t *testing.T) {
	for _, tc := range []struct {
		src   string
		named bool
	}{
		{"class A : public rclcpp::Node {\npublic:\n  /// m() does it.\n  rclcpp::Time m(int a) const;\n};", false},
		{"class A {\n  // m\n  void m();\n  std::vector<std::pair<int, int>> m(double);\n};", false},
		{"template <typename T>\nvoid A::m(T t) const\n{\n}", false},
		{"auto A::m() -> rclcpp::Time\n{\n}", false},
		{"struct A { void m() override; };", true},
		{"struct A { virtual void m(); };", true},
		{"struct A { void m() = 0; };", true},
		{"void f() { m(); }", true},
		{"void f() { if (x) m(); }", true},
		{"void f() { return m(); }", true},
		{"void f() { x = y; else m(1); }", true},
		{"void f() { A::m(); }", true},
		{"void f() { node->m(); }", true},
		{"void f() { node.m(); }", true},
		{"void f() { auto t = m(); }", true},
		{"void f() { bind(&A::m, this); }", true},
		{"void f() { x ? a : m(); }", true},
		{"void f() { [[nodiscard]] int m(); }", true},
		{"#define CALL m()\n", true},
		{"add_executable(m src/m.cpp)", true},
	} {
		if got := cppNamedIn([]byte(tc.src), "m"); got != tc.named {
			t.Errorf("cppNamedIn(%q) = %v, want %v", tc.src, got, tc.named)
		}
	}
}
