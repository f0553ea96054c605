// Command corpus is the real-world precision benchmark of simclock lint
// (lint/corpus/README.md), run by scripts/lint-corpus: it lints the public ROS 2
// repositories of dev.tsv or eval.tsv (already extracted under -corpus) and compares
// every finding with the hand-made verdicts of verdicts.tsv.
//
// A verdict line is: repository name, file (relative to the repository),
// line, rule, verdict (real, fp, debatable or ? for not yet classified;
// "debatable;kilted=real" overrides it for a distribution) and a one-line
// reason. Precision per rule is real / (real + fp + debatable),
// counting only the findings the linter reports now. Verdicts whose finding
// is no longer reported are listed as "gone": a false positive gone is a
// precision fix, a real hazard gone is a lost detection.
package main

import (
	"bufio"
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/simclock/simclock/lint"
	"github.com/simclock/simclock/rules"
)

type key struct {
	repo, file string
	line       int
	rule       string
}

type verdict struct {
	key
	verdict, reason string
}

func main() {
	corpus := flag.String("corpus", "/work/corpus", "directory holding one extracted tree per repository")
	repos := flag.String("repos", "lint/corpus/dev.tsv", "repository list (dev.tsv or eval.tsv)")
	verdicts := flag.String("verdicts", "lint/corpus/verdicts.tsv", "verdicts file")
	writeNew := flag.Bool("write-new", false, "append findings without a verdict to the verdicts file as '?'")
	list := flag.Bool("list", false, "print every finding with its severity and verdict")
	distro := flag.String("ros-distro", lint.DefaultDistro, "ROS 2 distribution the code is linted for")
	flag.Parse()
	if err := run(*corpus, *repos, *verdicts, *distro, *writeNew, *list); err != nil {
		fmt.Fprintln(os.Stderr, "lint-corpus:", err)
		os.Exit(2)
	}
}

func readTSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows, sc.Err()
}

func run(corpus, reposPath, verdictsPath, distro string, writeNew, list bool) error {
	repoRows, err := readTSV(reposPath)
	if err != nil {
		return err
	}
	vrows, err := readTSV(verdictsPath)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	known := map[key]verdict{}
	for i, r := range vrows {
		if len(r) < 5 {
			return fmt.Errorf("%s: entry %d: want repo, file, line, rule, verdict, reason", verdictsPath, i+1)
		}
		var v verdict
		if _, err := fmt.Sscan(r[2], &v.line); err != nil {
			return fmt.Errorf("%s: entry %d: line %q: %w", verdictsPath, i+1, r[2], err)
		}
		v.repo, v.file, v.rule, v.verdict = r[0], r[1], r[3], verdictFor(r[4], distro)
		if len(r) > 5 {
			v.reason = r[5]
		}
		known[v.key] = v
	}
	type count struct{ real, fp, deb, unk int }
	// Findings that fail a run (warning, error) and info findings, which
	// never do, are counted apart: precision is what a CI run sees.
	perRule := map[string]*count{}
	perRuleInfo := map[string]*count{}
	seen := map[key]bool{}
	var unclassified, listed []string
	files, start := 0, time.Now()
	for _, r := range repoRows {
		name := r[0]
		dir := filepath.Join(corpus, name)
		res, err := lint.Run(context.Background(), []string{dir}, lint.Config{RosDistro: distro})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files += res.Files
		for _, f := range res.Findings {
			rel, _ := filepath.Rel(dir, f.File)
			k := key{name, filepath.ToSlash(rel), f.Line, f.Rule().String()}
			seen[k] = true
			table := perRule
			if !rules.FailOnWarning.Fails(f.Severity) {
				table = perRuleInfo
			}
			c := table[f.Rule().String()]
			if c == nil {
				c = &count{}
				table[f.Rule().String()] = c
			}
			if list {
				v := known[k].verdict
				if v == "" {
					v = "?"
				}
				listed = append(listed, fmt.Sprintf("finding: %s/%s:%d %s %s %s", k.repo, k.file, k.line, k.rule, f.Severity, v))
			}
			switch known[k].verdict {
			case "real":
				c.real++
			case "fp":
				c.fp++
			case "debatable":
				c.deb++
			default:
				c.unk++
				if _, ok := known[k]; !ok {
					unclassified = append(unclassified, strings.Join([]string{k.repo, k.file, fmt.Sprint(k.line), k.rule, "?", f.Message}, "\t"))
				}
			}
		}
	}
	elapsed := time.Since(start)
	printTable := func(title string, perRule map[string]*count) {
		rules := make([]string, 0, len(perRule))
		for id := range perRule {
			rules = append(rules, id)
		}
		slices.SortFunc(rules, func(a, b string) int { return cmp.Compare(ruleNum(a), ruleNum(b)) })
		fmt.Println(title)
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "rule\tfindings\treal\tfp\tdebatable\tunclassified\tprecision")
		var tot count
		for _, id := range rules {
			c := perRule[id]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", id, c.real+c.fp+c.deb+c.unk, c.real, c.fp, c.deb, c.unk, precision(c.real, c.fp+c.deb))
			tot.real += c.real
			tot.fp += c.fp
			tot.deb += c.deb
			tot.unk += c.unk
		}
		fmt.Fprintf(tw, "all\t%d\t%d\t%d\t%d\t%d\t%s\n", tot.real+tot.fp+tot.deb+tot.unk, tot.real, tot.fp, tot.deb, tot.unk, precision(tot.real, tot.fp+tot.deb))
		tw.Flush()
	}
	printTable("findings that fail a run (warning, error):", perRule)
	if len(perRuleInfo) > 0 {
		printTable("info findings (never fail a run):", perRuleInfo)
	}
	fmt.Printf("%d repositories, %d files in %.1fs\n", len(repoRows), files, elapsed.Seconds())
	var gone []verdict
	for k, v := range known {
		if !seen[k] {
			gone = append(gone, v)
		}
	}
	slices.SortFunc(gone, func(a, b verdict) int {
		return cmp.Or(cmp.Compare(a.repo, b.repo), cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	for _, v := range gone {
		fmt.Printf("gone (%s): %s/%s:%d %s  %s\n", v.verdict, v.repo, v.file, v.line, v.rule, v.reason)
	}
	for _, l := range listed {
		fmt.Println(l)
	}
	for _, u := range unclassified {
		fmt.Println("new:", u)
	}
	if writeNew && len(unclassified) > 0 {
		f, err := os.OpenFile(verdictsPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		for _, u := range unclassified {
			fmt.Fprintln(f, u)
		}
		return f.Close()
	}
	return nil
}

// verdictFor picks the verdict for a distribution from a field such as
// "debatable;kilted=real;rolling=real": the first entry is the default, the
// others override it for one distribution (what a negative rclcpp::Time
// does depends on it).
func verdictFor(field, distro string) string {
	parts := strings.Split(field, ";")
	for _, p := range parts[1:] {
		if d, v, ok := strings.Cut(p, "="); ok && strings.TrimSpace(d) == distro {
			return strings.TrimSpace(v)
		}
	}
	return strings.TrimSpace(parts[0])
}

func ruleNum(id string) int {
	var n int
	fmt.Sscanf(strings.TrimPrefix(id, "R"), "%d", &n)
	return n
}

func precision(real, bad int) string {
	if real+bad == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(real)/float64(real+bad))
}
