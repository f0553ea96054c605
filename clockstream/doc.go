// Package clockstream is simclock's one model of a /clock stream: where
// samples come from (a Source), what they say (the Analyzer) and how a
// simulator produces them (a Schedule played by a Player).
//
// # Sources
//
// A Sample is one /clock message as an observer met it: its receive time,
// its publisher and its value (or why it has none). Decode turns a
// payload into a Sample and Encode is the one place a Clock message is
// built. Samples come from
//
//   - a live subscription, DDS or the in-process bus: a Watcher stamps
//     each sample with its executor's steady clock, so a virtual-time
//     executor gives deterministic receive times;
//   - a bag: FromMessages adapts any iterator of recorded messages (log
//     time, publisher, payload) to a Source;
//   - a simulator: FromSchedule yields what a Schedule would publish,
//     without a transport.
//
// Analyze runs an Analyzer over a whole Source; a Watcher runs one over a
// live subscription and reports every interval (simclock monitor).
//
// # Vocabulary
//
// Each word below means one thing in simclock: in monitor, bag and doctor,
// in text and in JSON.
//
//   - message: one sample, valid or not. A valid message is one a node
//     applies (timemsg.DecodeClock): it decodes, its sec is not negative
//     and its nanosec is below 1e9. Others are malformed (do not decode,
//     or a negative sec) or not normalized (nanosec ≥ 1e9, R8). Both are
//     counted and dropped.
//   - rate: messages per second of receive time.
//   - period: the median interval between consecutive messages, over the
//     last 64 intervals that were not gaps.
//   - step: the median positive change of value between consecutive valid
//     messages, over the last 64 that were not jumps.
//   - gap: no message at all for longer than Periods × period (and at least
//     MinGap). A gap in progress at a report is a silence. (Old monitor
//     output called this a stall.)
//   - pause: messages keep coming but the value stands still for longer
//     than Periods × period (and at least MinGap), as while "ros2 bag play"
//     is paused. A pause is also called a stall; simclock says pause.
//     (Old bag output called this a stall.)
//   - backward jump: a valid value below the previous one (a looped or
//     restarted recording, R14, R22).
//   - forward jump: a value ahead of the previous one by more than
//     JumpSteps × step × the number of periods the two messages are apart,
//     and by at least MinJump: the simulator skipped ahead (R22, R23). A
//     large step after a gap of proportionate length is not a jump.
//   - zero: a valid message carrying time 0, which nodes read as "not
//     started" (R10, R11).
//   - RTF (real-time factor): value advanced per receive time advanced,
//     summed over consecutive valid messages that are not jumps. Pauses
//     count (they lower it); jumps do not.
//   - publishers: the distinct publishers that sent messages, plus those a
//     live subscription matched. More than one is a fault (R18); then RTF
//     and rate are given per publisher, and the stream's overall RTF is
//     none, since interleaved clocks make it meaningless.
//
// # Producing /clock
//
// A Schedule says which value to publish at which offset from the start
// of a run: start, step, period (or RTF), a pre-clock wait, a pause, a
// one-shot jump, an end value with or without looping, one message in
// Every, and the faults of a real link (drop, jitter) from a seed. It never
// reads a clock. A Player publishes a Schedule on an executor's steady
// clock, so in virtual time it runs without sleeping; simclock pub,
// simclock bag clock and the experiment's simulator all use it.
package clockstream
