package experiment

import (
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
)

// A ClockTypeRow is one operation of the clock-type pitfall table (R3,
// R5, R6, R30): the rclpy expression, what simclock's dynamic API gives,
// and what rclpy does.
type ClockTypeRow struct {
	Kind      string `json:"kind"` // "clocktype_op"
	Rule      string `json:"rule"`
	Python    string `json:"rclpy"`
	Result    string `json:"simclock_result"`
	Error     string `json:"simclock_error,omitempty"`
	RclpyDoes string `json:"rclpy_behaviour"`
	// Agrees is true when simclock errors exactly where rclpy raises.
	Agrees bool `json:"agrees"`
}

// A ClockTypeObject is one time built the rclpy way.
type ClockTypeObject struct {
	Kind   string `json:"kind"` // "clocktype_object"
	Name   string `json:"name"`
	Python string `json:"rclpy"`
	Time   string `json:"value"`
}

// ClockTypes builds eight times the ways rclpy code does and applies 22
// operations between them with the dynamic API (simclock.AnyTime). systemNow
// and steadyNow stand for Clock().now() and a steady clock's now().
func ClockTypes(systemNow simclock.Time[simclock.System], steadyNow simclock.Time[simclock.Steady]) ([]ClockTypeObject, []ClockTypeRow) {
	mk := func(sec float64, ct simclock.ClockType) simclock.AnyTime {
		t, _ := simclock.NewAnyTime(sec, 0, ct)
		return t
	}
	m15, _ := timemsg.FromAnyTime(mk(1.5, simclock.SystemTime))
	fromMsg, _ := timemsg.ToAnyTime(m15, simclock.ROSTime)
	fromMsgSys, _ := timemsg.ToAnyTime(m15, simclock.SystemTime)
	objs := []struct {
		name, py string
		t        simclock.AnyTime
	}{
		{"t_default", "Time()", mk(0, simclock.SystemTime)},
		{"t_15", "Time(seconds=1.5)", mk(1.5, simclock.SystemTime)},
		{"t_15_ros", "Time(seconds=1.5, clock_type=ClockType.ROS_TIME)", mk(1.5, simclock.ROSTime)},
		{"from_msg", "Time.from_msg(Time(seconds=1.5).to_msg())", fromMsg},
		{"from_msg_sys", "Time.from_msg(msg, clock_type=ClockType.SYSTEM_TIME)", fromMsgSys},
		{"clock_now", "Clock().now()", systemNow.Any()},
		{"node_now_sim0", "node.get_clock().now()  # use_sim_time, no /clock yet", mk(0, simclock.ROSTime)},
		{"steady_now", "Clock(clock_type=ClockType.STEADY_TIME).now()", steadyNow.Any()},
	}
	byName := map[string]simclock.AnyTime{}
	var objects []ClockTypeObject
	for _, o := range objs {
		byName[o.name] = o.t
		objects = append(objects, ClockTypeObject{Kind: "clocktype_object", Name: o.name, Python: o.py, Time: o.t.String()})
	}
	type op struct {
		rule, py, rclpy string
		raises          bool
		do              func() (string, error)
	}
	cmpOp := func(a, b string, f func(x, y simclock.AnyTime) (bool, error)) func() (string, error) {
		return func() (string, error) {
			v, err := f(byName[a], byName[b])
			return fmt.Sprint(v), err
		}
	}
	sub := func(a, b string) func() (string, error) {
		return func() (string, error) {
			d, err := byName[a].Sub(byName[b])
			return d.String(), err
		}
	}
	minus := func(a string, d time.Duration) func() (string, error) {
		return func() (string, error) {
			t, err := byName[a].Minus(d)
			return t.String(), err
		}
	}
	plus := func(a string, d time.Duration) func() (string, error) {
		return func() (string, error) {
			t, err := byName[a].Add(d)
			return t.String(), err
		}
	}
	eq := func(x, y simclock.AnyTime) (bool, error) { return x.Equal(y) }
	ne := func(x, y simclock.AnyTime) (bool, error) { v, err := x.Equal(y); return !v && err == nil, err }
	lt := func(x, y simclock.AnyTime) (bool, error) { return x.Before(y) }
	gt := func(x, y simclock.AnyTime) (bool, error) { return x.After(y) }
	typeErr := "TypeError: Can't compare times with different clock types"
	subErr := "TypeError: Can't subtract times with different clock types"
	ops := []op{
		{"R30", "Time(seconds=1.5) == Time.from_msg(Time(seconds=1.5).to_msg())", typeErr, true, cmpOp("t_15", "from_msg", eq)},
		{"R30", "Time(seconds=1.5) < Time.from_msg(...)", typeErr, true, cmpOp("t_15", "from_msg", lt)},
		{"R30", "Time.from_msg(...) - Time(seconds=1.5)", subErr, true, sub("from_msg", "t_15")},
		{"R3", "Time.from_msg(msg, clock_type=SYSTEM_TIME) == Time(seconds=1.5)", "True", false, cmpOp("from_msg_sys", "t_15", eq)},
		{"R3", "Time.from_msg(...) == Time(seconds=1.5, clock_type=ROS_TIME)", "True", false, cmpOp("from_msg", "t_15_ros", eq)},
		{"R6", "Time() == node.get_clock().now()  # both 0 ns", typeErr, true, cmpOp("t_default", "node_now_sim0", eq)},
		{"R6", "Time() != node.get_clock().now()", typeErr + " (!= delegates to ==)", true, cmpOp("t_default", "node_now_sim0", ne)},
		{"R5", "node.get_clock().now() - Time()  # rosbridge-style cached baseline", subErr, true, sub("node_now_sim0", "t_default")},
		{"R6", "node.get_clock().now() > Time()", typeErr, true, cmpOp("node_now_sim0", "t_default", gt)},
		{"R5", "Clock().now() - Time()", "Duration (both SYSTEM_TIME)", false, sub("clock_now", "t_default")},
		{"R5", "node.get_clock().now() - Time.from_msg(stamp)", "Duration (both ROS_TIME)", false, sub("node_now_sim0", "from_msg")},
		{"R6", "Time(seconds=1.5, clock_type=ROS_TIME) > Time.from_msg(...)", "False", false, cmpOp("t_15_ros", "from_msg", gt)},
		{"R5", "Clock(clock_type=STEADY_TIME).now() - Clock().now()", subErr, true, sub("steady_now", "clock_now")},
		{"R6", "Clock(clock_type=STEADY_TIME).now() < node.get_clock().now()", typeErr, true, cmpOp("steady_now", "node_now_sim0", lt)},
		{"R6", "Clock().now() == Time(seconds=1.5)", "False", false, cmpOp("clock_now", "t_15", eq)},
		{"R4", "node.get_clock().now() - Duration(seconds=1)  # before the first /clock", "ValueError: Subtraction leads to negative time.", true, minus("node_now_sim0", time.Second)},
		{"R4", "Time(seconds=1.5) - Duration(seconds=1.5)", "Time(nanoseconds=0, clock_type=SYSTEM_TIME): valid", false, minus("t_15", 1500*time.Millisecond)},
		{"R4", "Time(seconds=1.5) - Duration(seconds=2)", "ValueError: Subtraction leads to negative time.", true, minus("t_15", 2*time.Second)},
		{"R4", "Time(seconds=1.5) + Duration(seconds=0.5)", "Time(nanoseconds=2000000000, clock_type=SYSTEM_TIME)", false, plus("t_15", 500*time.Millisecond)},
		{"R4", "Time.from_msg(...) + Duration(seconds=0.5)", "Time(nanoseconds=2000000000, clock_type=ROS_TIME)", false, plus("from_msg", 500*time.Millisecond)},
		{"R8", "Time(seconds=1.5).to_msg()", "sec=1, nanosec=500000000", false, func() (string, error) {
			m, err := timemsg.FromAnyTime(byName["t_15"])
			return m.String(), err
		}},
		{"R8", "Duration(seconds=-0.5).to_msg()", "sec=-1, nanosec=500000000", false, func() (string, error) {
			m, err := timemsg.FromDuration(-500 * time.Millisecond)
			return m.String(), err
		}},
	}
	var rows []ClockTypeRow
	for _, o := range ops {
		res, err := o.do()
		row := ClockTypeRow{Kind: "clocktype_op", Rule: o.rule, Python: o.py, RclpyDoes: o.rclpy}
		if err != nil {
			row.Error = err.Error()
			row.Result = "error"
			switch {
			case errors.Is(err, simclock.ErrClockTypeMismatch):
				row.Result = "ErrClockTypeMismatch"
			case errors.Is(err, simclock.ErrNegativeTime):
				row.Result = "ErrNegativeTime"
			}
		} else {
			row.Result = res
		}
		row.Agrees = (err != nil) == o.raises
		rows = append(rows, row)
	}
	return objects, rows
}
