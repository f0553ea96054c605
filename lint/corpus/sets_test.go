package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The corpus files are written by hand and by scripts/lint-corpus-pool, and
// an error in them does not show until someone extracts and lints hundreds
// of trees: a name two repositories share would put both in one directory,
// a repository in both sets would be read while it is being evaluated. These
// tests check what the measurement relies on.

var (
	repoPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	commitPattern = regexp.MustCompile(`^[0-9a-f]{40}$`)
	rulePattern   = regexp.MustCompile(`^R[0-9]+$`)
)

// readSet reads dev.tsv or eval.tsv, checking each row: name, repository, commit.
func readSet(t *testing.T, path string) (names, repos map[string]string) {
	t.Helper()
	rows, err := readTSV(path)
	if err != nil {
		t.Fatal(err)
	}
	names, repos = map[string]string{}, map[string]string{}
	for i, r := range rows {
		at := fmt.Sprintf("%s: entry %d", path, i+1)
		if len(r) != 3 {
			t.Errorf("%s: %d columns, want name, repository, commit", at, len(r))
			continue
		}
		name, repo, commit := r[0], r[1], r[2]
		if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			t.Errorf("%s: name %q is not one directory name", at, name)
		}
		if !repoPattern.MatchString(repo) {
			t.Errorf("%s: repository %q is not owner/name", at, repo)
		}
		if !commitPattern.MatchString(commit) {
			t.Errorf("%s: commit %q is not 40 hex digits", at, commit)
		}
		names[name] = repo
		repos[strings.ToLower(repo)] = name
	}
	return names, repos
}

// confirmationSets are the evaluation sets drawn beside eval.tsv (round 15's
// eval15.tsv, round 18's eval18.tsv, each measured on the same frozen rules as
// the eval.tsv beside it; round 19's eval19.tsv and round 20's eval20.tsv,
// each measured on main's rules at its pin and on its round's frozen rules;
// round 21's eval21.tsv and round 22's eval22.tsv, a second and a third unseen
// set for round 20, measured the same way; round 24's eval24.tsv, leftover
// mirrors measured for rounds 20 and 23's rules; round 25's eval25.tsv, round
// 26's eval26.tsv and round 27's eval27.tsv, unseen repositories with time code measured on
// main's rules at their pins and on round 25's frozen rules; round 28's
// eval28.tsv, leftover mirrors of rounds 25 to 27 measured on main's rules at its
// pin and on round 28's frozen rules; round 30's eval30.tsv, round 31's eval31.tsv, round 32's eval32.tsv, round 34's eval34.tsv, round 35's eval35.tsv: unseen repositories with time
// code measured on main's rules at their pins and on round 33's frozen rules, or
// drawn after that freeze and measured on it; rounds 36 to 43's sets, drawn by
// exact code pattern (36, 37, 38, 42) or by name and kept by pattern (39, 40,
// 43), measured on main's rules as at fd2158a and, for 38 to 43, on round 41's
// frozen rules; round 45's eval45.tsv, drawn by exact loop-condition pattern
// after round 44 and measured on round 41's frozen rules and main's after round
// 44): each is checked as eval.tsv is while it exists, and is empty
// but for its header once moved to dev.tsv.
var confirmationSets = []string{"eval15", "eval18", "eval19", "eval20", "eval21", "eval22", "eval24", "eval25", "eval26", "eval27", "eval28", "eval30", "eval31", "eval32", "eval34", "eval35", "eval36", "eval37", "eval38", "eval39", "eval40", "eval42", "eval43", "eval45"}

// existingConfirmationSets returns the confirmation sets whose file exists.
func existingConfirmationSets(t *testing.T) []string {
	t.Helper()
	var sets []string
	for _, set := range confirmationSets {
		if _, err := os.Stat(set + ".tsv"); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set)
	}
	return sets
}

func TestSetsAreDisjointAndWellFormed(t *testing.T) {
	dev, devRepos := readSet(t, "dev.tsv")
	eval, evalRepos := readSet(t, "eval.tsv")
	sets := []struct {
		file         string
		names, repos map[string]string
	}{{"dev.tsv", dev, devRepos}, {"eval.tsv", eval, evalRepos}}
	for _, set := range existingConfirmationSets(t) {
		names, repos := readSet(t, set+".tsv")
		sets = append(sets, struct {
			file         string
			names, repos map[string]string
		}{set + ".tsv", names, repos})
	}
	// All sets are extracted side by side under one directory, on file
	// systems that may ignore case.
	dirs := map[string]string{}
	for _, set := range sets {
		for name := range set.names {
			dir := strings.ToLower(name)
			if other, ok := dirs[dir]; ok {
				t.Errorf("%s: name %q and %s share a directory under the corpus", set.file, name, other)
			}
			dirs[dir] = set.file + ":" + name
		}
	}
	// An evaluated tree must not have been read (dev.tsv), nor be measured
	// twice (eval.tsv and a confirmation set).
	for i, set := range sets[1:] {
		for repo, name := range set.repos {
			for _, earlier := range sets[:i+1] {
				if other, ok := earlier.repos[repo]; ok {
					t.Errorf("%s: %s (%s) is in %s too, as %s: an evaluated tree must not have been read or measured twice", set.file, repo, name, earlier.file, other)
				}
			}
		}
	}
	if len(dev) < 150 {
		t.Errorf("dev.tsv: %d repositories; the issue asks for a corpus of at least 150", len(dev))
	}
}

func TestPoolIsWellFormed(t *testing.T) {
	pools := []string{"pool.tsv"}
	for _, set := range confirmationSets {
		pool := "pool" + strings.TrimPrefix(set, "eval") + ".tsv"
		if _, err := os.Stat(pool); err == nil {
			pools = append(pools, pool)
		}
	}
	for _, pool := range pools {
		rows, err := readTSV(pool)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for i, r := range rows {
			if len(r) != 2 || !repoPattern.MatchString(r[0]) || r[1] == "" {
				t.Errorf("%s: entry %d: %q, want owner/name and a kind", pool, i+1, r)
				continue
			}
			repo := strings.ToLower(r[0])
			if j, ok := seen[repo]; ok {
				t.Errorf("%s: entry %d: %s is entry %d too", pool, i+1, r[0], j)
			}
			seen[repo] = i + 1
		}
	}
}

// Every verdict names a repository of its set, a line, a rule and a verdict
// scripts/lint-corpus understands for every distribution.
func TestVerdictsNameTheirSet(t *testing.T) {
	sets := []struct{ verdicts, set string }{
		{"verdicts.tsv", "dev.tsv"},
		{"eval-verdicts.tsv", "eval.tsv"},
	}
	for _, set := range existingConfirmationSets(t) {
		sets = append(sets, struct{ verdicts, set string }{set + "-verdicts.tsv", set + ".tsv"})
	}
	for _, c := range sets {
		names, _ := readSet(t, c.set)
		rows, err := readTSV(c.verdicts)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			at := fmt.Sprintf("%s: entry %d", c.verdicts, i+1)
			if len(r) < 5 {
				t.Errorf("%s: %d columns, want repo, file, line, rule, verdict, reason", at, len(r))
				continue
			}
			if _, ok := names[r[0]]; !ok {
				t.Errorf("%s: repository %q is not in %s", at, r[0], c.set)
			}
			if n, err := strconv.Atoi(r[2]); err != nil || n < 1 {
				t.Errorf("%s: line %q is not a line number", at, r[2])
			}
			if !rulePattern.MatchString(r[3]) {
				t.Errorf("%s: rule %q is not R<n>", at, r[3])
			}
			for _, distro := range []string{"humble", "jazzy", "kilted", "rolling"} {
				switch v := verdictFor(r[4], distro); v {
				case "real", "fp", "debatable", "?":
				default:
					t.Errorf("%s: verdict %q on %s is not real, fp, debatable or ?", at, v, distro)
				}
			}
		}
	}
}
