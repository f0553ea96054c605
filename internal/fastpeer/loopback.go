package fastpeer

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Peers is how many participant indices the peer's initial peers cover:
// the discovery ports of indices 0 to Peers-1, matching
// MaxAutoParticipantIndex in config/cyclonedds-loopback.xml.
const Peers = 32

// DiscoveryPort is the RTPS well-known unicast discovery (SPDP) port of
// participant index index in domain: PB + DG*domain + d1 + PG*index with
// PB 7400, DG 250, PG 2, d1 10 (RTPS 2.2 §9.6.1.1), the defaults of both
// Fast DDS and Cyclone DDS.
func DiscoveryPort(domain, index int) int { return 7400 + 250*domain + 10 + 2*index }

// CheckLoopback verifies that the peer is loopback-only, and returns an
// error listing every way it is not:
//   - its own report (the "config" event): builtin transports off, exactly
//     one transport, UDPv4, whitelisted to 127.0.0.1 only; no multicast
//     locator; unicast locators on 127.0.0.1; initial peers exactly
//     127.0.0.1 at the discovery ports of participant indices 0..Peers-1;
//   - every remote participant it discovered announces 127.0.0.1 locators
//     only;
//   - the operating system: every inet socket of the process is UDP bound
//     to 127.0.0.1 (no wildcard or multicast receiver, no TCP, no IPv6),
//     and it maps no shared memory from /dev/shm.
func (p *Peer) CheckLoopback() error {
	var errs []error
	cfg := p.Select(func(e Event) bool { return e.Kind == "config" })
	if len(cfg) != 1 {
		return fmt.Errorf("fastpeer: %d config lines, want 1", len(cfg))
	}
	c := cfg[0]
	domain, err := c.Int("domain")
	if err != nil {
		return err
	}
	want := map[string]string{
		"builtin_transports":    "false",
		"transports":            "UDPv4",
		"whitelist":             "127.0.0.1",
		"metatraffic_multicast": "none",
		"default_multicast":     "none",
	}
	for k, v := range want {
		if got := c.Get(k); got != v {
			errs = append(errs, fmt.Errorf("config %s=%q, want %q", k, got, v))
		}
	}
	for _, k := range []string{"metatraffic_unicast", "default_unicast"} {
		for _, l := range strings.Split(c.Get(k), ",") {
			if !strings.HasPrefix(l, "127.0.0.1:") {
				errs = append(errs, fmt.Errorf("config %s has locator %q, not on 127.0.0.1", k, l))
			}
		}
	}
	var wantPeers []string
	for i := range Peers {
		wantPeers = append(wantPeers, "127.0.0.1:"+strconv.Itoa(DiscoveryPort(int(domain), i)))
	}
	if got := c.Get("initial_peers"); got != strings.Join(wantPeers, ",") {
		errs = append(errs, fmt.Errorf("config initial_peers=%s, want %s", got, strings.Join(wantPeers, ",")))
	}
	for _, e := range p.Select(func(e Event) bool { return e.Kind == "participant" && e.Get("status") == "discovered" }) {
		for _, l := range strings.Split(e.Get("locators"), ",") {
			if !strings.HasPrefix(l, "127.0.0.1:") {
				errs = append(errs, fmt.Errorf("remote participant %s announces locator %q", e.Get("gid"), l))
			}
		}
	}
	errs = append(errs, checkSockets(p.PID())...)
	if len(errs) > 0 {
		return fmt.Errorf("fastpeer: not loopback-only: %w", errors.Join(errs...))
	}
	return nil
}

// checkSockets inspects /proc for process pid's sockets and shared memory.
func checkSockets(pid int) []error {
	var errs []error
	proc := filepath.Join("/proc", strconv.Itoa(pid))
	fds, err := os.ReadDir(filepath.Join(proc, "fd"))
	if err != nil {
		return []error{fmt.Errorf("reading the peer's descriptors: %w", err)}
	}
	inodes := make(map[string]bool)
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(proc, "fd", fd.Name()))
		if err != nil {
			continue // closed meanwhile
		}
		if strings.HasPrefix(target, "/dev/shm/") {
			errs = append(errs, fmt.Errorf("descriptor %s is shared memory %s", fd.Name(), target))
		}
		if ino, ok := strings.CutPrefix(target, "socket:["); ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	udp := 0
	for _, table := range []string{"udp", "udp6", "tcp", "tcp6", "raw", "raw6", "udplite", "udplite6"} {
		rows, err := socketTable(filepath.Join(proc, "net", table))
		if err != nil {
			if table == "udp" {
				errs = append(errs, err)
			}
			continue
		}
		for _, r := range rows {
			if !inodes[r.inode] {
				continue
			}
			if table != "udp" || !strings.HasPrefix(r.local, "0100007F:") {
				errs = append(errs, fmt.Errorf("%s socket bound to %s (inode %s)", table, r.local, r.inode))
				continue
			}
			udp++
		}
	}
	if udp == 0 {
		errs = append(errs, errors.New("no UDP socket on 127.0.0.1 found for the peer"))
	}
	maps, err := os.ReadFile(filepath.Join(proc, "maps"))
	if err != nil {
		errs = append(errs, fmt.Errorf("reading the peer's memory map: %w", err))
	}
	for _, l := range strings.Split(string(maps), "\n") {
		if strings.Contains(l, "/dev/shm/") {
			errs = append(errs, fmt.Errorf("maps shared memory: %s", strings.TrimSpace(l)))
		}
	}
	return errs
}

type socketRow struct{ local, inode string }

// socketTable reads a /proc/net/{udp,tcp,...} table: local address
// (hex "0100007F:1F90") and inode of every row.
func socketTable(path string) ([]socketRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []socketRow
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 10 {
			continue
		}
		rows = append(rows, socketRow{local: w[1], inode: w[9]})
	}
	return rows, sc.Err()
}
