package graph

import (
	"strconv"
	"strings"
)

// DDS partitions. A writer and a reader match only when their PARTITION
// policies share a partition, besides topic, type and QoS. ROS 2 puts
// every endpoint in the default partition (rmw stopped mapping namespaces
// to partitions in Crystal), but a Fast DDS XML profile or a plain DDS
// program can set one: such a /clock reader is on the topic and still
// hears nothing.
//
// The rules are DDS's, as Cyclone DDS 0.10 applies them
// (q_qosmatch.c, partitions_match_p): an empty list is the default
// partition ""; names may hold the wildcards '*' (any run of characters)
// and '?' (one character); a wildcard name matches a plain name, never
// another wildcard name; two lists match when any pair of names does.

// PartitionsMatch reports whether endpoints with partition lists a and b
// can match.
func PartitionsMatch(a, b []string) bool {
	switch {
	case len(a) == 0:
		return matchesDefault(b)
	case len(b) == 0:
		return matchesDefault(a)
	}
	for _, x := range a {
		for _, y := range b {
			if partitionMatch(x, y) || partitionMatch(y, x) {
				return true
			}
		}
	}
	return false
}

// matchesDefault reports whether list ps includes the default partition.
func matchesDefault(ps []string) bool {
	if len(ps) == 0 {
		return true
	}
	for _, p := range ps {
		if partitionMatch(p, "") {
			return true
		}
	}
	return false
}

func isWildcard(s string) bool { return strings.ContainsAny(s, "*?") }

// partitionMatch reports whether pattern pat matches partition name.
func partitionMatch(pat, name string) bool {
	switch {
	case !isWildcard(pat):
		return pat == name
	case isWildcard(name):
		return false
	}
	return globMatch(pat, name)
}

// globMatch matches name against pat, where '*' stands for any run of
// bytes and '?' for one byte (no classes, no escapes). It backtracks to
// the last '*' only, so it runs in O(len(pat)·len(name)).
func globMatch(pat, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pat) && (pat[p] == '?' || pat[p] == name[n]):
			p++
			n++
		case p < len(pat) && pat[p] == '*':
			star, mark = p, n
			p++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// PartitionsString formats a partition list for messages: the quoted
// names, or "the default partition" for none.
func PartitionsString(ps []string) string {
	if len(ps) == 0 {
		return "the default partition"
	}
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = strconv.Quote(p)
	}
	return "partition " + strings.Join(q, ", ")
}
