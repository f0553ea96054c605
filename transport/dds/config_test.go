package dds_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		want     dds.Config
		warnings int
		err      bool
	}{
		{name: "defaults", env: nil, want: dds.Config{}},
		{name: "domain", env: map[string]string{"ROS_DOMAIN_ID": "42"}, want: dds.Config{Domain: 42}},
		{name: "domain_empty_is_0", env: map[string]string{"ROS_DOMAIN_ID": " "}, want: dds.Config{}},
		{name: "domain_not_a_number", env: map[string]string{"ROS_DOMAIN_ID": "x"}, err: true},
		{name: "domain_too_big", env: map[string]string{"ROS_DOMAIN_ID": "233"}, err: true},
		{name: "localhost", env: map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}, want: dds.Config{Range: dds.Localhost}},
		{name: "off", env: map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "OFF"}, want: dds.Config{Range: dds.Off}},
		{name: "system_default", env: map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "SYSTEM_DEFAULT"}, want: dds.Config{Range: dds.SystemDefault}},
		{name: "unknown_range_warns_localhost", env: map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "MOON"}, want: dds.Config{Range: dds.Localhost}, warnings: 1},
		{name: "localhost_only_overrides", env: map[string]string{"ROS_LOCALHOST_ONLY": "1", "ROS_AUTOMATIC_DISCOVERY_RANGE": "SUBNET", "ROS_STATIC_PEERS": "10.0.0.1"},
			want: dds.Config{Range: dds.Localhost}, warnings: 1},
		{name: "static_peers", env: map[string]string{"ROS_STATIC_PEERS": "10.0.0.1; host.local;"},
			want: dds.Config{StaticPeers: []string{"10.0.0.1", "host.local"}}},
		{name: "uri", env: map[string]string{"CYCLONEDDS_URI": "file:///x.xml"}, want: dds.Config{URI: "file:///x.xml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := dds.ConfigFromEnv(env(tc.env))
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if tc.err {
				return
			}
			if got.Domain != tc.want.Domain || got.Range != tc.want.Range || got.URI != tc.want.URI ||
				!slices.Equal(got.StaticPeers, tc.want.StaticPeers) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if len(warnings) != tc.warnings {
				t.Errorf("warnings %q, want %d", warnings, tc.warnings)
			}
		})
	}
}

func TestCycloneConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg          dds.Config
		want, absent []string
	}{
		{cfg: dds.Config{}, absent: []string{"<"}},
		{cfg: dds.Config{URI: "file:///a.xml"}, want: []string{"file:///a.xml"}, absent: []string{"<"}},
		{cfg: dds.Config{Range: dds.Localhost, URI: "file:///a.xml"},
			want: []string{"<AllowMulticast>false</AllowMulticast>", "<ParticipantIndex>auto</ParticipantIndex>",
				"<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>", `<Peer address="localhost"/>`, "</CycloneDDS>,file:///a.xml"}},
		{cfg: dds.Config{Range: dds.Off},
			want: []string{"<AllowMulticast>false</AllowMulticast>", "<ParticipantIndex>none</ParticipantIndex>",
				fmt.Sprintf("<Tag>ros_discovery_off_%d</Tag>", os.Getpid())}},
		{cfg: dds.Config{StaticPeers: []string{"10.1.2.3", `a"b`}},
			want:   []string{`<Peer address="10.1.2.3"/>`, `<Peer address="a&#34;b"/>`, "<ParticipantIndex>auto</ParticipantIndex>"},
			absent: []string{"AllowMulticast"}},
		{cfg: dds.Config{Range: dds.SystemDefault, StaticPeers: []string{"10.1.2.3"}}, absent: []string{"<"}},
	} {
		got := tc.cfg.CycloneConfig()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: config %q lacks %q", tc.cfg, got, w)
			}
		}
		for _, a := range tc.absent {
			if strings.Contains(got, a) {
				t.Errorf("%+v: config %q contains %q", tc.cfg, got, a)
			}
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/clock", "rt/clock"}, {"clock", "rt/clock"}, {"/ns/clock", "rt/ns/clock"},
	} {
		if got, err := dds.TopicName(tc.in); err != nil || got != tc.want {
			t.Errorf("TopicName(%q) = %q, %v; want %q (R9)", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "/", "/a//b", "/a/"} {
		if _, err := dds.TopicName(bad); err == nil {
			t.Errorf("TopicName(%q) succeeded", bad)
		}
	}
	if got, err := dds.TypeName("rosgraph_msgs/msg/Clock"); err != nil || got != "rosgraph_msgs::msg::dds_::Clock_" {
		t.Errorf("TypeName(Clock) = %q, %v (R9)", got, err)
	}
	for _, bad := range []string{"Clock", "a/b", "a//c", "a/b/c/d"} {
		if _, err := dds.TypeName(bad); err == nil {
			t.Errorf("TypeName(%q) succeeded", bad)
		}
	}
}

// TestDiscoveryConfigsAccepted opens a domain with each discovery
// fragment ConfigFromEnv can produce, combined with the loopback
// configuration, so Cyclone itself parses the XML, and checks that two
// participants then exchange a Clock.
func TestDiscoveryConfigsAccepted(t *testing.T) {
	requireDDS(t)
	for i, cfg := range []dds.Config{
		{Range: dds.Localhost},
		{Range: dds.Off},
		{Range: dds.Subnet, StaticPeers: []string{"127.0.0.1"}},
		{Range: dds.SystemDefault},
	} {
		t.Run(cfg.Range.String(), func(t *testing.T) {
			cfg.Domain = uint32(domainDiscoveryBase + i)
			cfg.URI = loopbackURI(t)
			a, err := dds.Open(context.Background(), cfg)
			if err != nil {
				t.Fatalf("Open(%q): %v", cfg.CycloneConfig(), err)
			}
			defer a.Close() //nolint:errcheck // test cleanup
			b, err := dds.Open(context.Background(), cfg)
			if err != nil {
				t.Fatalf("second Open: %v", err)
			}
			defer b.Close() //nolint:errcheck // test cleanup
			p, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
			if err != nil {
				t.Fatal(err)
			}
			s, err := b.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockSubscriptionQoS)
			if err != nil {
				t.Fatal(err)
			}
			want := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 7, Nanosec: 8}})
			deadline := time.Now().Add(10 * time.Second)
			for {
				if err := p.Publish(context.Background(), want); err != nil {
					t.Fatal(err)
				}
				if smp, ok := s.Take(); ok {
					if !bytes.Equal(smp.Data, want) {
						t.Fatalf("got % x, want % x", smp.Data, want)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatal("no Clock received")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
