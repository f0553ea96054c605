// Package bag reads rosbag2 recordings in MCAP and finds the time hazards
// in them: /clock gaps, stalls, backward jumps and its real-time factor;
// messages recorded before the first /clock; zero stamps; stamps on
// another time base than the bag's clock; stamps in the future; stamps
// going backwards within a topic; and stamps that make stamp − W negative
// or zero for a window W.
package bag
