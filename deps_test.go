package simclock_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// depsRules is simclock's architecture as a lattice, in the language of
// Go's own go/build/deps_test.go: "a, b < c" means c may import a and b,
// and everything a and b may import. Every package of the module is named
// here exactly once on a right-hand side (its definition); an unplaced
// package, or an import outside a package's allowed set, fails
// TestDependencies. ALL-CAPS names are groups. "simclock" is the module's
// root package and "simclock/x" its package x; other names are import
// paths. The standard library is STD, except the few packages named
// below, which only the packages above them may import.
//
// "a !< b" asserts that b may not reach a: keep those even when the rules
// above them change.
//
// Do not relax a rule to make a build pass: move the code instead, or
// discuss the new edge first.
const depsRules = `
	NONE < STD < unsafe, testing, os/exec;
	unsafe < C;

	# Libraries, each used by one room.
	STD < gopkg.in/yaml.v3, github.com/klauspost/compress/zstd, github.com/pierrec/lz4/v4;
	STD < github.com/foxglove/mcap/go/mcap, modernc.org/sqlite;
	unsafe < modernc.org/libc < modernc.org/sqlite/lib;
	C < github.com/tree-sitter/go-tree-sitter,
	    github.com/tree-sitter/tree-sitter-cpp/bindings/go,
	    github.com/tree-sitter/tree-sitter-python/bindings/go;
	STD < github.com/spf13/pflag < github.com/spf13/cobra;
	unsafe < golang.org/x/sys/unix;
	STD < github.com/santhosh-tekuri/jsonschema/v6;
	STD < github.com/pelletier/go-toml/v2, github.com/bmatcuk/doublestar/v4;

	# Core values: times, durations and clocks (the root package), the CDR
	# encoding, rule IDs, units, terminal escaping; the standard library
	# only.
	STD < simclock, simclock/cdr, simclock/rules, simclock/internal/units, simclock/internal/term;

	# Wire values and clocks: ROS messages, the transport contract, the
	# discovered graph, message definitions, a virtual clock, guards.
	STD < simclock/transport;
	simclock, simclock/cdr < simclock/timemsg;
	simclock/cdr, simclock/transport < simclock/graph;
	simclock/cdr, simclock/timemsg < simclock/ros2msg;
	simclock < simclock/virtualclock, simclock/guard;

	# Runtime: rcl's timers, executor, time source and nodes.
	simclock < simclock/timer;
	simclock/timer, simclock/transport, simclock/virtualclock < simclock/executor;
	simclock/timemsg, simclock/transport < simclock/timesource;
	simclock/executor, simclock/timesource < simclock/node;
	simclock/node, simclock/guard < RUNTIME;

	# Transports: the in-process bus, and DDS, whose C is behind one door.
	simclock/transport < simclock/transport/inproc;
	C < simclock/transport/dds/internal/ddsc;
	simclock/graph, simclock/transport/dds/internal/ddsc < simclock/transport/dds;
	simclock/transport/inproc, simclock/transport/dds < TRANSPORTS;

	# The one /clock analyser, schedule and player.
	simclock/node, simclock/internal/units < simclock/clockstream;

	# Tools: bag, doctor, the experiments, lint. bag reads .db3 rows
	# through SQLite's own interface behind one door, the only package
	# holding SQLite's memory.
	modernc.org/sqlite/lib < simclock/bag/internal/sqlitedirect;
	simclock/clockstream, simclock/ros2msg, simclock/rules,
	  github.com/foxglove/mcap/go/mcap, modernc.org/sqlite, gopkg.in/yaml.v3,
	  github.com/klauspost/compress/zstd, github.com/pierrec/lz4/v4,
	  simclock/bag/internal/sqlitedirect
	< simclock/bag;
	simclock/clockstream, simclock/graph, simclock/ros2msg, simclock/rules < simclock/doctor;
	RUNTIME, simclock/clockstream, simclock/transport/inproc < simclock/experiment;
	simclock/rules, gopkg.in/yaml.v3,
	  github.com/pelletier/go-toml/v2, github.com/bmatcuk/doublestar/v4,
	  github.com/tree-sitter/go-tree-sitter,
	  github.com/tree-sitter/tree-sitter-cpp/bindings/go,
	  github.com/tree-sitter/tree-sitter-python/bindings/go
	< simclock/lint;
	simclock/bag, simclock/doctor, simclock/experiment, simclock/lint < TOOLS;

	# The one writer of output (JSON lines, findings as text and SARIF), the
	# CLI, the one place a real transport is wired in, and main, which
	# reads the terminal's keys (bag clock's space to pause).
	simclock/rules, simclock/internal/term < simclock/internal/report;
	TOOLS, TRANSPORTS, simclock/internal/report, github.com/spf13/cobra, os/exec
	< simclock/internal/cli;
	simclock/internal/cli, golang.org/x/sys/unix < simclock/cmd/simclock;

	# Development tools and test support.
	simclock/lint < simclock/lint/corpus;
	STD < simclock/internal/benchreport, simclock/internal/testdomain;
	testing, golang.org/x/sys/unix < simclock/internal/benchround;
	simclock/internal/benchreport, os/exec < simclock/internal/benchreport/cmd/bench;
	simclock/rules, testing < simclock/rules/rulestest;
	github.com/santhosh-tekuri/jsonschema/v6, testing, os/exec < simclock/internal/report/reporttest;
	simclock, testing < simclock/internal/timetest;
	simclock/timemsg, simclock/transport, testing < simclock/transport/transporttest;
	testing, os/exec < simclock/internal/fastpeer;

	# What must never happen, whatever the rules above become.
	C, TOOLS, TRANSPORTS, simclock/internal/cli !< RUNTIME, simclock/clockstream;
	simclock/lint !< simclock/guard;
	simclock/doctor !< simclock/node;
	simclock/internal/units !< simclock;
	github.com/foxglove/mcap/go/mcap, modernc.org/sqlite, modernc.org/sqlite/lib !< simclock/doctor, simclock/experiment;
	testing !< TOOLS, RUNTIME, TRANSPORTS, simclock/internal/cli;
`

const modulePath = "github.com/simclock/simclock"

// TestDependencies checks every package of the module against depsRules:
// each is placed, imports only what its layer allows, and reaches cgo,
// tree-sitter, mcap and sqlite (through any chain of libraries) only where
// the lattice lets it.
func TestDependencies(t *testing.T) {
	policy, err := parseDepsRules(depsRules)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := listPackages(t)
	for _, e := range checkDependencies(policy, pkgs) {
		t.Error(e)
	}
	// One /clock model: the analyser, the schedule and the player live in
	// clockstream, and the tools use it rather than a second copy.
	for _, user := range []string{"simclock/internal/cli", "simclock/experiment", "simclock/doctor", "simclock/bag"} {
		p := pkgs.byName(user)
		if p == nil || !slices.Contains(p.Imports, modulePath+"/clockstream") {
			t.Errorf("%s does not use clockstream: a second /clock producer or analyser?", user)
		}
	}
}

// TestDependenciesCatchProbes is the test of the test: the code review's
// probes, and the other ways the lattice must fail, added to the module's
// real import graph.
func TestDependenciesCatchProbes(t *testing.T) {
	policy, err := parseDepsRules(depsRules)
	if err != nil {
		t.Fatal(err)
	}
	real := listPackages(t)
	probes := []struct {
		name string
		edit func(g packages) packages
		want string // a substring of one of the errors
	}{
		{"guard imports lint (tree-sitter and cgo into a runtime package)",
			func(g packages) packages { return g.addImport("simclock/guard", "simclock/lint") },
			"simclock/guard imports simclock/lint"},
		{"node imports doctor",
			func(g packages) packages { return g.addImport("simclock/node", "simclock/doctor") },
			"simclock/node imports simclock/doctor"},
		{"timesource imports the DDS transport",
			func(g packages) packages { return g.addImport("simclock/timesource", "simclock/transport/dds") },
			"simclock/timesource imports simclock/transport/dds"},
		{"the root package imports internal/units",
			func(g packages) packages { return g.addImport("simclock", "simclock/internal/units") },
			"simclock imports simclock/internal/units"},
		{"clockstream reaches sqlite through a library",
			func(g packages) packages { return g.addDep("simclock/clockstream", "modernc.org/sqlite/lib") },
			"simclock/clockstream reaches modernc.org/sqlite/lib"},
		{"bag reaches cgo through a library",
			func(g packages) packages {
				g = append(g, &pkg{ImportPath: "example.com/cgolib", CgoFiles: []string{"lib.go"}})
				return g.addDep("simclock/bag", "example.com/cgolib")
			},
			"simclock/bag reaches example.com/cgolib (cgo)"},
		{"a new package nobody placed",
			func(g packages) packages {
				return append(g, &pkg{ImportPath: modulePath + "/newroom", Imports: []string{"fmt"}})
			},
			"simclock/newroom is not placed in depsRules"},
		{"a library no rule names",
			func(g packages) packages { return g.addImport("simclock/lint", "github.com/some/lib") },
			"simclock/lint imports github.com/some/lib"},
		{"testing in a tool",
			func(g packages) packages { return g.addImport("simclock/doctor", "testing") },
			"simclock/doctor imports testing"},
	}
	if errs := checkDependencies(policy, real); len(errs) > 0 {
		t.Fatalf("the real graph fails already: %v", errs)
	}
	for _, p := range probes {
		errs := checkDependencies(policy, p.edit(real.clone()))
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, p.want) }) {
			t.Errorf("%s: want an error with %q, got %q", p.name, p.want, errs)
		}
	}
	// A rule naming a package that no longer exists is stale.
	gone, err := parseDepsRules(depsRules + "simclock/lint < simclock/gone;")
	if err != nil {
		t.Fatal(err)
	}
	if errs := checkDependencies(gone, real); !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, "simclock/gone") }) {
		t.Errorf("a rule for a package that does not exist: %q", errs)
	}
	// Relaxing a rule against a negative assertion does not parse; nor
	// does letting a package import one defined after it (guard, lint).
	for _, relax := range []struct{ from, to, want string }{
		{"simclock/rules < simclock/doctor;", "simclock/rules, testing < simclock/doctor;", "assertion failed: testing !< TOOLS"},
		{"simclock < simclock/virtualclock, simclock/guard;", "simclock, simclock/lint < simclock/virtualclock, simclock/guard;",
			"simclock/lint is used before its definition"},
	} {
		rules := strings.Replace(depsRules, relax.from, relax.to, 1)
		if rules == depsRules {
			t.Fatalf("no rule %q", relax.from)
		}
		if _, err := parseDepsRules(rules); err == nil || !strings.Contains(err.Error(), relax.want) {
			t.Errorf("%s: %v, want %q", relax.to, err, relax.want)
		}
	}
}

func TestDepsRulesLanguage(t *testing.T) {
	for _, tc := range []struct{ rules, err string }{
		{"NONE < a < b; a, b < C;", ""},
		{"NONE < a; a < b; b < a;", "more than one definition of a"},
		{"NONE < a; b < c;", "b is used before its definition"},
		{"NONE < a; a < b; b !< a;", ""},
		{"NONE < a; a < b; a !< b;", "assertion failed: a !< b"},
		{"NONE < a; a < b < c; a !< c;", "assertion failed: a !< c"},
		{"NONE < a a;", "syntax error"},
		{"NONE < a; a <", "syntax error"},
		{"a < NONE;", "NONE cannot be defined"},
	} {
		_, err := parseDepsRules(tc.rules)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: %v, want %q", tc.rules, err, tc.err)
		}
	}
	p, err := parseDepsRules("NONE < a; a < b; b, x < c; NONE < x;")
	if err == nil {
		t.Errorf("x used before its definition: parsed %v", p)
	}
	p, err = parseDepsRules("NONE < a, x; a < b; b, x < c;")
	if err != nil {
		t.Fatal(err)
	}
	if !p.allows("c", "a") || !p.allows("c", "x") || p.allows("b", "x") || p.allows("a", "b") || p.allows("a", "a") {
		t.Errorf("closure wrong: %v", p.allowed)
	}
}

// A depsPolicy is the closure of depsRules: allowed[p][d] when p may
// import d.
type depsPolicy struct {
	allowed map[string]map[string]bool
	order   []string // names in definition order
}

func (p *depsPolicy) placed(name string) bool { return p.allowed[name] != nil }

func (p *depsPolicy) allows(from, to string) bool { return p.allowed[from][to] }

// parseDepsRules reads the rule language of depsRules: lists of names
// separated by "<" or "!<", rules ended by ";", comments from "#".
func parseDepsRules(text string) (*depsPolicy, error) {
	type rule struct {
		less, more []string
		not        bool
	}
	var rules []rule
	var errs []string
	for i, stmt := range strings.Split(stripComments(text), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		// Split at each < (keeping !< apart) into lists of names.
		var lists [][]string
		var ops []string
		rest := stmt
		for {
			j := strings.Index(rest, "<")
			part := rest
			if j >= 0 {
				part = rest[:j]
			}
			op := "<"
			if strings.HasSuffix(part, "!") {
				op, part = "!<", strings.TrimSuffix(part, "!")
			}
			var names []string
			for n := range strings.SplitSeq(part, ",") {
				f := strings.Fields(n)
				if len(f) != 1 {
					return nil, fmt.Errorf("depsRules: statement %d: syntax error near %q", i+1, strings.TrimSpace(n))
				}
				names = append(names, f[0])
			}
			lists = append(lists, names)
			if j < 0 {
				break
			}
			ops = append(ops, op)
			rest = rest[j+1:]
		}
		if len(lists) < 2 {
			return nil, fmt.Errorf("depsRules: statement %d: syntax error: no <", i+1)
		}
		for k, op := range ops {
			rules = append(rules, rule{less: lists[k], more: lists[k+1], not: op == "!<"})
		}
	}
	p := &depsPolicy{allowed: map[string]map[string]bool{"NONE": {}}}
	var negative []rule
	for _, r := range rules {
		if r.not {
			negative = append(negative, r)
			continue
		}
		for _, d := range r.more {
			if d == "NONE" {
				errs = append(errs, "NONE cannot be defined")
				continue
			}
			if p.placed(d) {
				errs = append(errs, "more than one definition of "+d)
				continue
			}
			set := map[string]bool{}
			for _, l := range r.less {
				if !p.placed(l) {
					errs = append(errs, fmt.Sprintf("%s is used before its definition (in the rule for %s)", l, d))
					continue
				}
				if l != "NONE" {
					set[l] = true
				}
				for x := range p.allowed[l] {
					set[x] = true
				}
			}
			p.allowed[d] = set
			p.order = append(p.order, d)
		}
	}
	// Definitions come before uses, so the sets are closed already and
	// the graph has no cycle.
	for _, r := range negative {
		for _, l := range r.less {
			for _, m := range r.more {
				if p.allows(m, l) {
					errs = append(errs, fmt.Sprintf("assertion failed: %s !< %s", l, m))
				}
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.New("depsRules: " + strings.Join(errs, "; "))
	}
	return p, nil
}

func stripComments(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

// A pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	CgoFiles   []string
	Standard   bool
	Module     *struct{ Path string }
}

type packages []*pkg

func (g packages) byName(name string) *pkg {
	for _, p := range g {
		if depsName(p.ImportPath) == name {
			return p
		}
	}
	return nil
}

func (g packages) clone() packages {
	out := make(packages, len(g))
	for i, p := range g {
		c := *p
		c.Imports, c.Deps = slices.Clone(p.Imports), slices.Clone(p.Deps)
		out[i] = &c
	}
	return out
}

// addImport adds an import from one of the module's packages (a depsRules
// name) to another, or to a library; the importer's deps grow with the
// import's.
func (g packages) addImport(from, to string) packages {
	path := to
	if to == "simclock" || strings.HasPrefix(to, "simclock/") {
		path = modulePath + strings.TrimPrefix(to, "simclock")
	}
	p := g.byName(from)
	p.Imports = append(p.Imports, path)
	p.Deps = append(p.Deps, path)
	if q := g.byName(to); q != nil {
		p.Deps = append(p.Deps, q.Deps...)
	}
	return g
}

// addDep makes a package of the module depend on dep through a library.
func (g packages) addDep(from, dep string) packages {
	p := g.byName(from)
	p.Deps = append(p.Deps, dep)
	return g
}

// listPackages runs go list once for the module's packages and everything
// they depend on.
func listPackages(t *testing.T) packages {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Deps,CgoFiles,Standard,Module", "./...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var all packages
	for dec := json.NewDecoder(out); ; {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all = append(all, &p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	if len(all) < 30 {
		t.Fatalf("go list found only %d packages", len(all))
	}
	return all
}

// depsName is the name of an import path in depsRules.
func depsName(path string) string {
	if path == modulePath || strings.HasPrefix(path, modulePath+"/") {
		return "simclock" + strings.TrimPrefix(path, modulePath)
	}
	return path
}

// checkDependencies returns what in g breaks policy: an unplaced package
// of the module, a rule for a package that does not exist, an import the
// package's layer does not allow, and a dependency on cgo, tree-sitter,
// mcap or sqlite (through any library) that its layer does not allow.
func checkDependencies(policy *depsPolicy, g packages) []string {
	info := map[string]*pkg{}
	for _, p := range g {
		info[p.ImportPath] = p
	}
	inModule := func(p *pkg) bool {
		return p.ImportPath == modulePath || strings.HasPrefix(p.ImportPath, modulePath+"/")
	}
	// The lattice name of an import: placed names as they are, the rest
	// of the standard library as STD.
	node := func(path string) string {
		name := depsName(path)
		if policy.placed(name) {
			return name
		}
		if p := info[path]; p != nil && p.Standard || p == nil && !strings.Contains(strings.Split(path, "/")[0], ".") {
			return "STD"
		}
		return name
	}
	var errs []string
	seen := map[string]bool{}
	for _, p := range g {
		if !inModule(p) {
			continue
		}
		name := depsName(p.ImportPath)
		seen[name] = true
		if !policy.placed(name) {
			errs = append(errs, fmt.Sprintf("%s is not placed in depsRules: give it a layer", name))
			continue
		}
		var bad []string
		for _, imp := range p.Imports {
			if n := node(imp); !policy.allows(name, n) {
				bad = append(bad, depsName(imp))
			}
		}
		if len(bad) > 0 {
			errs = append(errs, fmt.Sprintf("unexpected dependency: %s imports %s", name, strings.Join(bad, ", ")))
		}
		// Heavy dependencies, however far down: each must map to a
		// lattice name the package may reach.
		for _, d := range p.Deps {
			heavy, why := heavyNode(policy, d, info[d])
			if heavy != "" && !policy.allows(name, heavy) {
				errs = append(errs, fmt.Sprintf("unexpected dependency: %s reaches %s (%s)", name, d, why))
			}
		}
	}
	for _, name := range policy.order {
		if (name == "simclock" || strings.HasPrefix(name, "simclock/")) && !seen[name] {
			errs = append(errs, fmt.Sprintf("depsRules places %s, which is not a package of the module", name))
		}
	}
	return errs
}

// heavyNode says which lattice name a dependency d stands for when it is
// one of the heavy ones outside the standard library (tree-sitter, mcap,
// sqlite, any cgo package), and why; "" for the rest. A package of a
// placed library stands for it ("modernc.org/sqlite/lib" for
// "modernc.org/sqlite"); an unplaced one for itself, which no rule allows.
func heavyNode(policy *depsPolicy, d string, p *pkg) (name, why string) {
	if p != nil && p.Standard || d == modulePath || strings.HasPrefix(d, modulePath+"/") {
		return "", ""
	}
	for _, family := range []string{"github.com/tree-sitter/", "github.com/foxglove/mcap/", "modernc.org/sqlite"} {
		if !strings.HasPrefix(d, family) {
			continue
		}
		name = d
		for _, n := range policy.order {
			if strings.HasPrefix(d+"/", n+"/") && (name == d || len(n) > len(name)) {
				name = n
			}
		}
		return name, strings.TrimSuffix(family, "/")
	}
	if p != nil && len(p.CgoFiles) > 0 {
		return "C", "cgo"
	}
	return "", ""
}
