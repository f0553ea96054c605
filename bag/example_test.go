package bag

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/foxglove/mcap/go/mcap"
)

// Inspect a recording whose /clock loops back to its start: the backward
// jump is an error finding (R14, R22).
func ExampleInspect() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "looped_0.mcap")
	var msgs []genMsg
	for i := range 300 {
		log := wall + int64(i)*10*ms
		msgs = append(msgs, clockMsg(log, 100*sec+int64(i%200)*10*ms)) // back to 100 s after 2 s
	}
	f, _ := os.Create(path)
	_ = encodeBag(f, mcap.WriterOptions{Chunked: true, Compression: mcap.CompressionZSTD}, []genTopic{clockTopic}, msgs)
	f.Close()

	rep, err := Inspect(context.Background(), []string{path}, Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("/clock: %d messages at %.0f Hz", rep.Clock.Messages, rep.Clock.RateHz)
	if rtf := rep.Clock.RTF; rtf != nil { // none when nothing advanced, or for several publishers
		fmt.Printf(", RTF %.2f", *rtf)
	}
	fmt.Println()
	for _, fd := range rep.Findings {
		fmt.Println(fd.Severity, fd.Code, fd.Count, fd.Examples[0].Detail)
	}
	// Output:
	// /clock: 300 messages at 100 Hz, RTF 1.00
	// error clock_backward 1 back by 1.990 s
}
