package bag

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestSpan(t *testing.T) {
	msgs := simBag(0, 2)
	for _, mode := range []string{"zstd", "noindex"} {
		p := filepath.Join(t.TempDir(), "b.mcap")
		writeBag(t, p, writerModes[mode], []genTopic{clockTopic, rangeTopic}, msgs)
		s, e, err := Span(context.Background(), []string{p})
		if err != nil || s != msgs[0].log || e != msgs[len(msgs)-1].log {
			t.Errorf("%s: Span = %d, %d, %v; want %d, %d", mode, s, e, err, msgs[0].log, msgs[len(msgs)-1].log)
		}
	}
	p := filepath.Join(t.TempDir(), "empty.mcap")
	writeBag(t, p, writerModes["chunked"], []genTopic{clockTopic}, nil)
	if _, _, err := Span(context.Background(), []string{p}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty bag: got %v, want ErrEmpty", err)
	}
}
