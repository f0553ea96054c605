//go:build cgo

package lint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realTree writes n files shaped like a large ROS 2 repository into dir,
// deterministically from seed. The shape is measured on
// autoware.universe (2,947 linted files in 238 packages): per package
// about 5 C++ sources, 5 headers, 1.5 YAML parameter files, 1 XML launch
// file and half a Python file, plus its package.xml; file sizes are
// log-normal with a median of 2.7 kB and a 90th percentile of 12 kB, with
// a few files of 100 kB and more. The code is ordinary rclcpp/rclpy node
// code (classes, loops, lambdas, templates, macros, tf lookups,
// throttled logs, doc comments); about one file in forty carries a time
// pitfall.
func realTree(tb testing.TB, dir string, n int, seed uint64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	// size draws a file size: log-normal around median, capped.
	size := func(median float64) int {
		s := median * math.Exp(1.19*rng.NormFloat64())
		return int(min(max(s, 300), 400_000))
	}
	written, pkg := 0, 0
	for written < n {
		name := fmt.Sprintf("autoware_module_%03d", pkg)
		root := filepath.Join(dir, "group"+fmt.Sprint(pkg%7), name)
		write := func(rel, text string) {
			p := filepath.Join(root, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		write("package.xml", fmt.Sprintf("<?xml version=\"1.0\"?>\n<package format=\"3\">\n  <name>%s</name>\n  <version>0.1.0</version>\n</package>\n", name))
		per := 8 + rng.IntN(9) // 8..16 linted files per package
		for k := 0; k < per && written < n; k++ {
			pitfall := rng.IntN(40) == 0
			switch r := rng.IntN(100); {
			case r < 38:
				write(fmt.Sprintf("src/module_%d.cpp", k), cppSource(rng, name, k, size(3200), pitfall))
			case r < 76:
				write(fmt.Sprintf("include/%s/module_%d.hpp", name, k), cppHeader(rng, name, k, size(2400)))
			case r < 88:
				write(fmt.Sprintf("config/module_%d.param.yaml", k), yamlParams(rng, k, size(900)))
			case r < 96:
				write(fmt.Sprintf("launch/module_%d.launch.xml", k), xmlLaunch(rng, name, k, size(1200)))
			default:
				write(fmt.Sprintf("scripts/module_%d.py", k), pySource(rng, k, size(3000), pitfall))
			}
			written++
		}
		pkg++
	}
}

// license is the header of every generated C++ file, as in most ROS 2
// packages. With the doc comments below, comments are a third of the C++
// bytes (autoware.universe: 18 %, but denser code elsewhere), which makes
// the tree cost what autoware.universe costs to lint: 3.3 s of CPU time
// against 3.2 s for its 2,947 files, measured back to back.
const license = "// Copyright 2024 The Autoware Contributors\n//\n// Licensed under the Apache License, Version 2.0 (the \"License\");\n// you may not use this file except in compliance with the License.\n// You may obtain a copy of the License at\n//\n//     http://www.apache.org/licenses/LICENSE-2.0\n//\n// Unless required by applicable law or agreed to in writing, software\n// distributed under the License is distributed on an \"AS IS\" BASIS,\n// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n// See the License for the specific language governing permissions and\n// limitations under the License.\n\n"

func cppHeader(rng *rand.Rand, pkg string, k, size int) string {
	var b strings.Builder
	guard := strings.ToUpper(pkg) + fmt.Sprintf("__MODULE_%d_HPP_", k)
	fmt.Fprintf(&b, license+
		"#ifndef %s\n#define %s\n\n#include <rclcpp/rclcpp.hpp>\n#include <tf2_ros/buffer.h>\n#include <memory>\n#include <string>\n#include <vector>\n\n"+
		"namespace autoware::%s\n{\n", guard, guard, pkg)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `/**
 * @brief Parameters of module %[1]d, read once at startup.
 * @note Velocities are in m/s, distances in m.
 */
struct Param%[1]d
{
  double max_velocity{%[2]d.0};
  double min_distance{0.5};
  std::string frame_id{"map"};
  std::vector<double> weights{1.0, 2.0, 3.0};
};

template <typename T>
T clamp%[1]d(const T & v, const T & lo, const T & hi)
{
  return v < lo ? lo : (hi < v ? hi : v);
}

/**
 * @brief Filters the input and publishes the result on a timer.
 *
 * The timer runs on the node clock, so it follows /clock under sim time.
 */
class Module%[1]d : public rclcpp::Node
{
public:
  explicit Module%[1]d(const rclcpp::NodeOptions & options);
  ~Module%[1]d() override = default;

private:
  /// @brief Called by timer_ every 100 ms.
  void onTimer();
  /// @brief Stores the latest input and its arrival time.
  void onInput(const std::shared_ptr<const std::vector<double>> msg);
  // ready once an input has arrived and the frame is known
  bool isReady() const { return has_input_ && !params_.frame_id.empty(); }

  Param%[1]d params_;
  bool has_input_{false};
  rclcpp::Time last_stamp_{0, 0, RCL_ROS_TIME};
  rclcpp::TimerBase::SharedPtr timer_;
  std::unique_ptr<tf2_ros::Buffer> tf_buffer_;
};

`, i, rng.IntN(30))
	}
	fmt.Fprintf(&b, "}  // namespace autoware::%s\n\n#endif  // %s\n", pkg, guard)
	return b.String()
}

func cppSource(rng *rand.Rand, pkg string, k, size int, pitfall bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, license+"#include \"%s/module_%d.hpp\"\n\n#include <algorithm>\n#include <chrono>\n#include <cmath>\n\n"+
		"namespace autoware::%s\n{\nusing std::chrono_literals::operator\"\"ms;\n\n", pkg, k, pkg)
	for i := 0; b.Len() < size; i++ {
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, `Module%[1]d::Module%[1]d(const rclcpp::NodeOptions & options)
: Node("module_%[1]d", options)
{
  params_.max_velocity = declare_parameter<double>("max_velocity", %[2]d.0);
  params_.min_distance = declare_parameter<double>("min_distance");
  timer_ = rclcpp::create_timer(this, get_clock(), 100ms, [this]() { onTimer(); });
  tf_buffer_ = std::make_unique<tf2_ros::Buffer>(get_clock());
}

`, i, rng.IntN(20))
		case 1:
			fmt.Fprintf(&b, `/**
 * @brief Clamp every value to the velocity limits and warn about large ones.
 * @param msg the input values
 */
void Module%[1]d::onInput(const std::shared_ptr<const std::vector<double>> msg)
{
  std::vector<double> filtered;
  filtered.reserve(msg->size());
  std::transform(msg->begin(), msg->end(), std::back_inserter(filtered), [this](const double v) {
    return clamp%[1]d(v * params_.weights.at(0), -params_.max_velocity, params_.max_velocity);
  });
  // values below the minimum distance are noise: skip them
  for (size_t j = 0; j < filtered.size(); ++j) {
    if (std::abs(filtered[j]) < params_.min_distance) {
      continue;
    } else if (filtered[j] > %[2]d.0) {
      RCLCPP_WARN_THROTTLE(get_logger(), *get_clock(), 1000, "value %%f is large", filtered[j]);
    }
  }
  has_input_ = true;
  last_stamp_ = now();
}

`, i, rng.IntN(50))
		case 2:
			fmt.Fprintf(&b, `/**
 * @brief Check that the input is fresh and that the transform is known.
 *
 * A stale input (older than the timeout) stops the module until the next
 * message; a missing transform is only reported.
 */
void Module%[1]d::onTimer()
{
  if (!isReady()) {
    RCLCPP_INFO_THROTTLE(get_logger(), *get_clock(), 5000, "waiting for input");
    return;
  }
  const auto stamp = now();
  if ((stamp - last_stamp_).seconds() > %[2]d.5) {
    RCLCPP_ERROR(get_logger(), "input timed out");
    return;
  }
  try {
    const auto tf = tf_buffer_->lookupTransform(params_.frame_id, "base_link", tf2::TimePointZero);
    (void)tf;
  } catch (const tf2::TransformException & ex) {
    RCLCPP_WARN(get_logger(), "%%s", ex.what());
  }
  switch (static_cast<int>(params_.max_velocity)) {
    case 0:
      break;
    default:
      params_.weights.push_back(std::hypot(params_.max_velocity, params_.min_distance));
  }
}

`, i, rng.IntN(3))
		default:
			fmt.Fprintf(&b, `namespace
{
/**
 * @brief Linear interpolation in a table.
 * @param xs the sorted keys
 * @param ys the values, as many as keys
 * @param x the key to look up; clamped to the table
 * @return the interpolated value
 */
double interpolate%[1]d(const std::vector<double> & xs, const std::vector<double> & ys, const double x)
{
  if (xs.empty() || xs.size() != ys.size()) {
    throw std::invalid_argument("bad table");
  }
  const auto it = std::lower_bound(xs.begin(), xs.end(), x);
  if (it == xs.begin()) {
    return ys.front();
  }
  const size_t idx = std::distance(xs.begin(), it) - 1;
  const double ratio = (x - xs.at(idx)) / std::max(xs.at(idx + 1) - xs.at(idx), 1e-6);
  return ys.at(idx) + ratio * (ys.at(idx + 1) - ys.at(idx));
}
}  // namespace

`, i)
		}
	}
	if pitfall {
		b.WriteString(`rclcpp::Time Module0::windowStart()
{
  return this->now() - rclcpp::Duration::from_seconds(2.0);
}

`)
	}
	fmt.Fprintf(&b, "}  // namespace autoware::%s\n", pkg)
	if k%3 == 0 {
		// A component registration: a macro call tree-sitter cannot parse,
		// as in about one autoware.universe file in seven.
		fmt.Fprintf(&b, "\n#include <rclcpp_components/register_node_macro.hpp>\nRCLCPP_COMPONENTS_REGISTER_NODE(autoware::%s::Module0)\n", pkg)
	}
	return b.String()
}

func yamlParams(rng *rand.Rand, k, size int) string {
	var b strings.Builder
	b.WriteString("/**:\n  ros__parameters:\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "    module_%d_%d:\n      max_velocity: %d.0 # [m/s]\n      min_distance: 0.5\n      frame_id: map\n      enable: %v\n      weights: [1.0, 2.0, 3.0]\n",
			k, i, rng.IntN(30), rng.IntN(2) == 0)
	}
	return b.String()
}

func xmlLaunch(rng *rand.Rand, pkg string, k, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<?xml version=\"1.0\"?>\n<launch>\n  <arg name=\"param_path\" default=\"$(find-pkg-share %s)/config/module_%d.param.yaml\"/>\n", pkg, k)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  <node pkg=\"%s\" exec=\"module_%d_node\" name=\"module_%d_%d\" output=\"screen\">\n"+
			"    <param from=\"$(var param_path)\"/>\n    <param name=\"use_sim_time\" value=\"$(var use_sim_time)\"/>\n"+
			"    <remap from=\"~/input\" to=\"/sensing/input_%d\"/>\n  </node>\n", pkg, k, k, i, rng.IntN(9))
	}
	b.WriteString("</launch>\n")
	return b.String()
}

func pySource(rng *rand.Rand, k, size int, pitfall bool) string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env python3\nimport math\n\nimport rclpy\nfrom rclpy.duration import Duration\nfrom rclpy.node import Node\nfrom std_msgs.msg import Float64\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `

class Helper%[1]d(Node):
    """Smooths an input and republishes it."""

    def __init__(self):
        super().__init__('helper_%[1]d')
        self.declare_parameter('gain', %[2]d.0)
        self.values = []
        self.sub = self.create_subscription(Float64, 'in', self.on_input, 10)
        self.pub = self.create_publisher(Float64, 'out', 10)

    def on_input(self, msg):
        self.values.append(msg.data)
        self.values = self.values[-50:]
        mean = sum(self.values) / len(self.values)
        out = Float64(data=math.tanh(mean) * self.get_parameter('gain').value)
        if abs(out.data) > 1e3:
            self.get_logger().warn(f'large output {out.data:.3f}')
        self.pub.publish(out)
        return {k: v for k, v in enumerate(self.values) if v > 0}
`, i, rng.IntN(9))
	}
	if pitfall {
		b.WriteString("\n\ndef window(node):\n    return node.get_clock().now() - Duration(seconds=2)\n")
	}
	b.WriteString("\n\ndef main():\n    rclpy.init()\n    rclpy.spin(Helper0())\n\n\nif __name__ == '__main__':\n    main()\n")
	return b.String()
}
