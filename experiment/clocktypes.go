package experiment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// A ClockTypeRow is one operation of the clock-type pitfall table (R3,
// R5, R6, R30): the rclpy expression, what simclock's dynamic API gives,
// and what rclpy does.
type ClockTypeRow struct {
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
		objects = append(objects, ClockTypeObject{Name: o.name, Python: o.py, Time: o.t.String()})
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
			// Printed as rclpy prints a Duration, as the Times are.
			d, err := byName[a].Sub(byName[b])
			return fmt.Sprintf("Duration(nanoseconds=%d)", d.Nanoseconds()), err
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
		row := ClockTypeRow{Rule: o.rule, Python: o.py, RclpyDoes: o.rclpy}
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

// A ClockTypeTimerRow is the timer phase of the clock-type experiment: a
// 0.05 s timer whose callback computes now() - last_used, run for five
// periods, with last_used built one way.
type ClockTypeTimerRow struct {
	LastUsed string `json:"last_used"`
	// LastUsedClockType is the clock type of last_used; now() is the
	// node's ROS clock.
	LastUsedClockType string `json:"last_used_clock_type"`
	Periods           int    `json:"periods"`
	Entered           int    `json:"callbacks_entered"`
	Completed         int    `json:"callbacks_completed"`
	Errors            int    `json:"errors"`
	FirstError        string `json:"first_error,omitempty"`
	// EscapesSpin reports whether the error ends the executor's spin.
	EscapesSpin bool   `json:"error_escapes_spin"`
	Rclpy       string `json:"rclpy_behaviour"`
}

// ClockTypesTimer runs the timer phase on a node in virtual time: a 0.05 s
// ROS-clock timer computing now() - last_used with the dynamic API, once
// with last_used = Time() (SYSTEM_TIME 0, rclpy's default) and once with
// last_used = get_clock().now(), each for five periods.
//
// In rclpy the first variant raises TypeError in the first callback, and
// the exception escapes the executor's spin_once (so rclpy.spin ends):
// one callback entered, none completed. simclock's executor calls
// callbacks of type func(timer.Info), which cannot fail: the mismatch is
// an error value (ErrClockTypeMismatch) the callback handles, so every
// callback completes and the spin goes on. Nothing escapes, by design:
// one bad tick must not stop a robot's other callbacks. (The typed API
// does not even compile the subtraction.)
func ClockTypesTimer(ctx context.Context) ([]ClockTypeTimerRow, error) {
	const periods = 5
	zeroSystem, _ := simclock.AnyTimeFromNanoseconds(0, simclock.SystemTime)
	variants := []struct {
		name, rclpy string
		initial     func(n *node.Node) simclock.AnyTime
	}{
		{"Time()", "TypeError escapes spin: 1 in, 0 done",
			func(*node.Node) simclock.AnyTime { return zeroSystem }},
		{"get_clock().now()", "5 in, 5 done",
			func(n *node.Node) simclock.AnyTime { return n.Now().Any() }},
	}
	var rows []ClockTypeTimerRow
	for _, v := range variants {
		fake := virtualclock.New()
		exec := executor.New(executor.Config{Virtual: fake})
		n, err := node.New("clocktypes", exec, inproc.NewBus().Connect("clocktypes"), node.Options{})
		if err != nil {
			exec.Close()
			return nil, err
		}
		lastUsed := v.initial(n)
		row := ClockTypeTimerRow{LastUsed: v.name, LastUsedClockType: lastUsed.ClockType().String(),
			Periods: periods, Rclpy: v.rclpy}
		_, err = n.CreateTimer(50*time.Millisecond, func(timer.Info) {
			row.Entered++
			now := n.Now().Any()
			if _, err := now.Sub(lastUsed); err != nil {
				row.Errors++
				if row.FirstError == "" {
					row.FirstError = err.Error()
				}
			} else {
				lastUsed = now
			}
			row.Completed++
			if row.Entered == periods {
				exec.Stop()
			}
		})
		if err == nil {
			err = exec.Spin(ctx)
		}
		row.EscapesSpin = err != nil
		n.Close()
		exec.Close()
		if err != nil && ctx.Err() != nil {
			return rows, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}
