package fastpeer

import (
	"os"
	"regexp"
	"testing"
)

// docs/fastdds-peer.md's "Command line" lists every option the peer
// parses (peer.cpp), so that a reader of the document can drive it.
func TestDocListsEveryPeerOption(t *testing.T) {
	src, err := os.ReadFile("cpp/peer.cpp")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/fastdds-peer.md")
	if err != nil {
		t.Fatal(err)
	}
	opts := regexp.MustCompile(`"(--[a-z-]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(opts) < 30 {
		t.Fatalf("only %d options found in peer.cpp", len(opts))
	}
	seen := map[string]bool{"--help": true}
	for _, m := range opts {
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		if !regexp.MustCompile(regexp.QuoteMeta(m[1]) + `([^a-z-]|$)`).Match(doc) {
			t.Errorf("docs/fastdds-peer.md does not list the peer's option %s", m[1])
		}
	}
}
