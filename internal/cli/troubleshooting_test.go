package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

const troubleshootingDoc = "../../docs/troubleshooting.md"

// sourceLink is a citation of upstream lines: a GitHub blob link at a
// commit, with a line or a line range.
var sourceLink = regexp.MustCompile(`\]\(https://github\.com/([\w.-]+)/([\w.-]+)/blob/([0-9a-f]{40})/([^#)]+)#L(\d+)(?:-L(\d+))?\)`)

// upstreamLines reads a fixture of testdata/upstream: the lines of one
// upstream file at one commit, by their upstream line number.
func upstreamLines(t *testing.T, owner, repo, commit, path string) map[int]string {
	t.Helper()
	name := filepath.Join("testdata", "upstream", owner, repo+"@"+commit[:12], filepath.FromSlash(path))
	f, err := os.Open(name)
	if err != nil {
		t.Fatalf("no fixture for %s/%s %s at %s: %v", owner, repo, path, commit, err)
	}
	defer f.Close()
	lines := map[int]string{}
	sc := bufio.NewScanner(f)
	header := ""
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "# ") {
			header += l + "\n"
			continue
		}
		num, text, ok := strings.Cut(l, "|")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			t.Fatalf("%s: bad line %q", name, l)
		}
		lines[n] = text
	}
	if !strings.Contains(header, "at commit "+commit) || !strings.Contains(header, "Licence: ") {
		t.Fatalf("%s: the header does not name commit %s and a licence:\n%s", name, commit, header)
	}
	return lines
}

// sourceText is what the string literals on some lines of C, C++ or
// Python print: adjacent literals joined (as the compilers join them),
// escapes and %% undone. Whatever is filled in at run time (a printf
// verb, a {} of str.format, an expression between literals) becomes a
// NUL, which no quote can match across.
func sourceText(code string) string {
	literal := regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'`)
	verb := regexp.MustCompile(`%[-+ #0]*[0-9]*(?:\.[0-9]+)?[a-zA-Z]|\{\}`)
	var b strings.Builder
	last := -1
	for _, m := range literal.FindAllStringSubmatchIndex(code, -1) {
		if last >= 0 && strings.TrimSpace(code[last:m[0]]) != "" {
			b.WriteByte(0)
		}
		var s string
		if m[2] >= 0 {
			s = code[m[2]:m[3]]
		} else {
			s = code[m[4]:m[5]]
		}
		s = strings.ReplaceAll(s, "%%", "\x01") // a literal %, not a verb
		s = verb.ReplaceAllString(s, "\x00")
		s = strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\'`, `'`, `\\`, `\`, "\x01", "%").Replace(s)
		b.WriteString(s)
		last = m[1]
	}
	return b.String()
}

// Every message docs/troubleshooting.md quotes is exactly what the cited
// upstream lines print: each run of literal text between <placeholders>
// is in the string literals of the lines its Source: line links to, and
// every linked range holds part of the quote.
func TestTroubleshootingQuotes(t *testing.T) {
	doc, err := os.ReadFile(troubleshootingDoc)
	if err != nil {
		t.Fatal(err)
	}
	placeholder := regexp.MustCompile(`<[^<>]+>`)
	blocks := strings.Split(string(doc), "```text\n")[1:]
	if len(blocks) < 15 {
		t.Fatalf("only %d quoted messages", len(blocks))
	}
	for _, block := range blocks {
		quote, rest, _ := strings.Cut(block, "```")
		quote = strings.TrimSuffix(quote, "\n")
		rest = strings.TrimLeft(rest, "\n")
		src, _, _ := strings.Cut(rest, "\n")
		links := sourceLink.FindAllStringSubmatch(src, -1)
		if !strings.HasPrefix(src, "Source: ") || len(links) == 0 {
			t.Errorf("%q: no Source: line with links after it", quote)
			continue
		}
		var texts []string
		for _, l := range links {
			from, _ := strconv.Atoi(l[5])
			to := from
			if l[6] != "" {
				to, _ = strconv.Atoi(l[6])
			}
			lines := upstreamLines(t, l[1], l[2], l[3], l[4])
			var code strings.Builder
			for n := from; n <= to; n++ {
				line, ok := lines[n]
				if !ok {
					t.Fatalf("%s: line %d is not in the fixture", l[4], n)
				}
				code.WriteString(line + "\n")
			}
			texts = append(texts, sourceText(code.String()))
		}
		// A message may be assembled from several cited places: one
		// appended to another (tf2's lookup error), or one filled into
		// another's placeholder (the message filter's reason).
		candidates := []string{strings.Join(texts, "")}
		for i, outer := range texts {
			for j, inner := range texts {
				if i != j {
					candidates = append(candidates, strings.ReplaceAll(outer, "\x00", inner))
				}
			}
		}
		for _, frag := range placeholder.Split(quote, -1) {
			if frag == "" {
				continue
			}
			found := false
			for _, c := range candidates {
				found = found || strings.Contains(c, frag)
			}
			if !found {
				t.Errorf("%q: %q is in none of the cited lines %q", quote, frag, texts)
			}
		}
		for i, text := range texts {
			used := false
			for _, run := range strings.Split(text, "\x00") {
				used = used || len(run) >= 3 && strings.Contains(quote, run)
			}
			if !used {
				t.Errorf("%q: cited %s:%s holds none of it", quote, links[i][4], links[i][5])
			}
		}
	}
}

// Every output docs/troubleshooting.md shows is what simclock prints: a
// console block is run (from the repository's root) unless an "output
// of:" comment names the golden file it comes from (commands that need
// a live graph), and each of its lines must be in the output.
func TestTroubleshootingOutputs(t *testing.T) {
	doc, err := os.ReadFile(troubleshootingDoc)
	if err != nil {
		t.Fatal(err)
	}
	golden := regexp.MustCompile(`<!-- output of: (\S+) -->\s*$`)
	parts := strings.Split(string(doc), "```console\n")
	if len(parts) < 10 {
		t.Fatalf("only %d outputs shown", len(parts)-1)
	}
	for i, block := range parts[1:] {
		block, _, _ = strings.Cut(block, "```")
		lines := strings.Split(strings.TrimRight(block, "\n "), "\n")
		indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
		prompt := strings.TrimSpace(lines[0])
		args, ok := strings.CutPrefix(prompt, "$ simclock ")
		if !ok {
			t.Errorf("block %d does not start with $ simclock: %q", i+1, prompt)
			continue
		}
		t.Run(fmt.Sprintf("%d %s", i+1, args), func(t *testing.T) {
			var out string
			if m := golden.FindStringSubmatch(strings.TrimRight(parts[i], " \n")); m != nil {
				b, err := os.ReadFile(filepath.Join("../..", m[1]))
				if err != nil {
					t.Fatal(err)
				}
				out = string(b)
			} else {
				t.Chdir("../..")
				out, _, _ = runSimclock(t, strings.Fields(args)...)
			}
			checked := 0
			for _, line := range lines[1:] {
				if len(line) >= indent {
					line = line[indent:]
				}
				line = strings.TrimRight(line, " ")
				if line == "" || line == "..." {
					continue
				}
				if !strings.Contains(out, line+"\n") {
					t.Errorf("line not in the output of simclock %s:\n%s", args, line)
				}
				checked++
			}
			if checked == 0 {
				t.Error("no line checked")
			}
		})
	}
}

// Every command's help, and the README, point to the troubleshooting page.
func TestTroubleshootingLinked(t *testing.T) {
	leaves, groups := commandPaths(NewRoot(&Env{}), nil)
	for _, path := range append(append([][]string{{}}, groups...), leaves...) {
		out, _, code := runSimclock(t, append(path, "--help")...)
		if code != ExitOK || !strings.Contains(out, "docs/troubleshooting.md") {
			t.Errorf("simclock %s --help (exit %d) does not point to docs/troubleshooting.md", strings.Join(path, " "), code)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/troubleshooting.md)") {
		t.Error("the README does not link docs/troubleshooting.md")
	}
}

// Every #anchor the page links to is a heading of the page, as GitHub
// makes anchors: lower case, punctuation dropped, spaces to hyphens.
func TestTroubleshootingAnchors(t *testing.T) {
	doc, err := os.ReadFile(troubleshootingDoc)
	if err != nil {
		t.Fatal(err)
	}
	slug := func(h string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			anchors[slug(strings.TrimSpace(strings.TrimLeft(h, "#")))] = true
		}
		if strings.HasPrefix(line, "#") && strings.ContainsAny(line, "<>") {
			t.Errorf("a heading with < or > (read as HTML): %s", line)
		}
	}
	links := regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(string(doc), -1)
	if len(links) < 10 {
		t.Fatalf("only %d anchor links", len(links))
	}
	for _, l := range links {
		if !anchors[l[1]] {
			t.Errorf("link to #%s: no such heading", l[1])
		}
	}
}
