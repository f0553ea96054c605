//go:build cgo

package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/simclock/simclock/rules"
)

// A file linted alone (pre-commit passes files one by one) is judged by
// its package on disk: a launch file of the package that sets use_sim_time
// makes R27 fail the run; without one, R27 is info.
func TestR27SimTimeFromPackageOnDisk(t *testing.T) {
	const node = `#include <rclcpp/rclcpp.hpp>

class Window : public rclcpp::Node
{
public:
  Window() : Node("window") {}
  rclcpp::Time recent() const { return now() - rclcpp::Duration::from_seconds(1.0); }
};
`
	for _, tc := range []struct {
		name   string
		launch string
		want   rules.Severity
	}{
		{"sim launch", "parameters=[{'use_sim_time': True}]\n", rules.Warning},
		{"no sim time", "parameters=[{'rate': 10.0}]\n", rules.Info},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range map[string]string{
				"package.xml":          "<package format=\"3\"><name>window</name></package>\n",
				"launch/sim.launch.py": tc.launch,
				"src/window.cpp":       node,
			} {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Run(t.Context(), []string{filepath.Join(dir, "src", "window.cpp")}, Config{RosDistro: "kilted"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 1 || res.Findings[0].Rule() != rules.R27 || res.Findings[0].Severity != tc.want {
				t.Fatalf("findings %+v, want one R27 at %v", res.Findings, tc.want)
			}
		})
	}
}
