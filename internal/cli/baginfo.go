package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/bag"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
)

// bagInfoOptions are the inputs of simclock bag info.
type bagInfoOptions struct {
	env    *Env
	format string
	files  []string
}

func newBagInfoCmd(env *Env, runF func(context.Context, *bagInfoOptions) error) *cobra.Command {
	o := &bagInfoOptions{env: env}
	cmd := &cobra.Command{
		Use:   "info [flags] DIR | FILE...",
		Short: "Describe a rosbag2 bag as ros2 bag info does",
		Long: `simclock bag info [--format text|json] DIR | FILE...

Prints what "ros2 bag info" prints, in its layout (rosbag2_py's
format_bag_metadata, Jazzy): files, bag size, storage id, ROS distribution,
duration, start and end (local time, with the seconds since the epoch),
messages, each topic's type, count and serialization format, then the
services whose events were recorded. A bag directory is described by its
metadata.yaml, without reading its storage files, as ros2 bag info does;
storage files given one by one are read (counts and times, nothing
decoded). Several recordings (a folder of bags without metadata.yaml) are
described one after the other. --format json writes an env line, then a
"bag_info" line per recording.

Examples:
  simclock bag info rosbag2_2024_05_01-10_00_00
  simclock bag info --format json run_0.mcap run_1.mcap`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			if len(o.files) == 0 {
				return flagErrorf("bag info: no bag given")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBagInfo(cmd.Context(), o)
		},
	}
	addFormatFlag(cmd.Flags(), &o.format)
	return cmd
}

func runBagInfo(ctx context.Context, o *bagInfoOptions) error {
	env := o.env
	infos, err := bag.Info(ctx, o.files)
	if errors.Is(err, bag.ErrUsage) || errors.Is(err, bag.ErrInput) {
		return flagErrorf("%v", err)
	}
	loc := time.Local
	if tz := env.Getenv("TZ"); tz != "" {
		if l, lerr := time.LoadLocation(strings.TrimPrefix(tz, ":")); lerr == nil {
			loc = l
		}
	}
	if o.format == formatJSON {
		jl := report.NewJSONLines(env.Stdout)
		if werr := jl.Write("env", struct {
			envHeader
			Files []string `json:"files"`
		}{newEnvHeader("bag info"), o.files}); werr != nil {
			return werr
		}
		for _, bi := range infos {
			if werr := jl.Write("bag_info", bagInfoLine(bi)); werr != nil {
				return werr
			}
		}
		return err
	}
	for _, bi := range infos {
		if werr := writeBagInfo(env.Stdout, bi, loc); werr != nil {
			return werr
		}
	}
	return err
}

// infoTopic is one topic (or service) of a bag_info JSON line.
type infoTopic struct {
	Name                string `json:"name"`
	Type                string `json:"type"`
	Count               int64  `json:"count"`
	SerializationFormat string `json:"serialization_format"`
	Publishers          int    `json:"publishers"`
}

func bagInfoLine(bi *bag.BagInfo) any {
	line := struct {
		Name       string      `json:"name"`
		Files      []string    `json:"files"`
		Bytes      int64       `json:"bytes"`
		StorageID  string      `json:"storage_identifier"`
		ROSDistro  string      `json:"ros_distro"`
		DurationNS int64       `json:"duration_ns"`
		StartNS    int64       `json:"start_ns"`
		EndNS      int64       `json:"end_ns"`
		Messages   int64       `json:"messages"`
		Topics     []infoTopic `json:"topics"`
		Services   []infoTopic `json:"services"`
		Metadata   bool        `json:"from_metadata"`
	}{Name: bi.Name, Files: bi.Files, Bytes: bi.Bytes, StorageID: bi.StorageID, ROSDistro: bi.ROSDistro,
		DurationNS: bi.DurationNS, StartNS: bi.StartNS, EndNS: bi.StartNS + bi.DurationNS, Messages: bi.Messages,
		Topics: []infoTopic{}, Services: []infoTopic{}, Metadata: bi.FromMetadata}
	for _, t := range bi.Topics {
		it := infoTopic{Name: t.Name, Type: t.Type, Count: t.MessageCount, SerializationFormat: t.SerializationFormat, Publishers: len(t.QoS)}
		if bag.IsServiceEvent(t.Name, t.Type) {
			it.Name, it.Type = bag.ServiceName(t.Name, t.Type)
			line.Services = append(line.Services, it)
			line.Messages -= t.MessageCount
			continue
		}
		line.Topics = append(line.Topics, it)
	}
	return line
}

// writeBagInfo prints a bag as "ros2 bag info" does (rosbag2_py's
// format_bag_meta_data at Jazzy, then Python's print): the same labels,
// the 19-column indent, sizes in B/KiB/MiB, times in local time with
// their epoch seconds, service events apart from the topics and not in
// the message count. Strings from the bag are escaped.
func writeBagInfo(w io.Writer, bi *bag.BagInfo, loc *time.Location) error {
	const indent = "                   " // 19 spaces
	var b strings.Builder
	b.WriteString("\n")
	b.WriteString("Files:             ")
	if len(bi.Files) == 0 {
		b.WriteString("\n")
	}
	for i, f := range bi.Files {
		if i > 0 {
			b.WriteString(indent)
		}
		b.WriteString(term.Escape(f) + "\n")
	}
	distro := bi.ROSDistro
	if distro == "" {
		distro = "unknown"
	}
	var services []string
	var serviceEvents int64
	var topics []string
	for _, t := range bi.Topics {
		if bag.IsServiceEvent(t.Name, t.Type) {
			name, typ := bag.ServiceName(t.Name, t.Type)
			services = append(services, fmt.Sprintf("Service: %s | Type: %s | Event Count: %d | Serialization Format: %s",
				term.Escape(name), term.Escape(typ), t.MessageCount, term.Escape(t.SerializationFormat)))
			serviceEvents += t.MessageCount
			continue
		}
		topics = append(topics, fmt.Sprintf("Topic: %s | Type: %s | Count: %d | Serialization Format: %s",
			term.Escape(t.Name), term.Escape(t.Type), t.MessageCount, term.Escape(t.SerializationFormat)))
	}
	fmt.Fprintf(&b, "Bag size:          %s\n", infoSize(bi.Bytes))
	fmt.Fprintf(&b, "Storage id:        %s\n", term.Escape(bi.StorageID))
	fmt.Fprintf(&b, "ROS Distro:        %s\n", term.Escape(distro))
	fmt.Fprintf(&b, "Duration:          %ss\n", infoSeconds(bi.DurationNS))
	fmt.Fprintf(&b, "Start:             %s\n", infoTime(bi.StartNS, loc))
	fmt.Fprintf(&b, "End:               %s\n", infoTime(bi.StartNS+bi.DurationNS, loc))
	fmt.Fprintf(&b, "Messages:          %d\n", bi.Messages-serviceEvents)
	b.WriteString("Topic information: " + strings.Join(topics, "\n"+indent) + "\n")
	fmt.Fprintf(&b, "Service:           %d\n", len(services))
	b.WriteString("Service information: ")
	if len(services) > 0 {
		b.WriteString(strings.Join(services, "\n"+indent+"  ") + "\n")
	}
	b.WriteString("\n") // Python's print
	_, err := io.WriteString(w, b.String())
	return err
}

// infoSize is rosbag2's format_file_size: B, KiB, MiB, GiB, TiB with one
// decimal (none for bytes).
func infoSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	size, i := float64(n), 0
	for size >= 1024 && i < len(units)-1 {
		size /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f %s", size, units[i])
	}
	return fmt.Sprintf("%.1f %s", size, units[i])
}

// infoSeconds is rosbag2's "time_in_sec": whole seconds, a dot, nine
// digits.
func infoSeconds(ns int64) string {
	return fmt.Sprintf("%d.%09d", ns/1e9, ns%1e9)
}

// infoTime is rosbag2's format_time_point: "Apr  9 2020 04:27:36.763032325
// (1586406456.763032325)", in local time.
func infoTime(ns int64, loc *time.Location) string {
	t := time.Unix(ns/1e9, 0).In(loc)
	return fmt.Sprintf("%s %s.%09d (%s)", t.Format("Jan _2 2006"), t.Format("15:04:05"), ns%1e9, infoSeconds(ns))
}
