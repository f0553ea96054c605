package lint

// Sim-time evidence per node (R27's "Runs on sim time", docs/rules.md).
// The package-level evidence (simtime.go) counts a package as on sim time
// when any of its launches turns use_sim_time on, even for a node that
// none of them runs that way: a simulator bridge launched on wall time
// beside a map server given sim time (round 6's evaluation, f1tenth's
// gym_bridge). Where the package says which executable a file builds
// (setup.py/setup.cfg console_scripts, CMakeLists.txt add_executable or
// install(PROGRAMS)) and its Python launch files start that executable,
// the launches speak for that node: every launch of it on wall time, while
// another node of the same launches gets sim time, means the file does not
// run on sim time. Anything the analysis cannot attribute to one node (a
// parameter file or a launch-wide setting that turns sim time on, an XML
// launch naming the executable) leaves the package's evidence in force.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// noSimTimeNode is what a finding in such a node says.
const noSimTimeNode = "; info: its package's launch files start this node only on wall time (use_sim_time off or unset), while they give other nodes sim time"

var (
	consoleScriptRe = regexp.MustCompile(`['"]?\s*([\w.\-]+)\s*=\s*([\w.]+)\s*:\s*\w+`)
	addExecutableRe = regexp.MustCompile(`(?s)add_executable\(\s*([^\s)]+)([^)]*)\)`)
	installProgsRe  = regexp.MustCompile(`(?s)install\(\s*PROGRAMS([^)]*)\)`)
	pkgNameRe       = regexp.MustCompile(`<name>\s*([^<\s]+)\s*</name>`)
	launchNodeRe    = regexp.MustCompile(`\bNode\(`)
	nodeExecRe      = regexp.MustCompile(`\b(?:node_)?executable\s*=\s*['"]([^'"]+)['"]`)
	nodePackageRe   = regexp.MustCompile(`\bpackage\s*=\s*['"]([^'"]+)['"]`)
)

// nodeOnWallTime reports whether the package at root launches the
// executable built from the file at path only on wall time while its
// launches give another node sim time (see above).
func nodeOnWallTime(root, path string) bool {
	if root == "" {
		return false
	}
	pkgXML, err := os.ReadFile(filepath.Join(root, "package.xml"))
	if err != nil {
		return false
	}
	m := pkgNameRe.FindSubmatch(pkgXML)
	if m == nil {
		return false
	}
	pkg := string(m[1])
	abs, err1 := filepath.Abs(path)
	absRoot, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	execs := executablesOf(root, pkg, filepath.ToSlash(rel))
	if len(execs) == 0 {
		return false
	}
	launched, wallOnly, othersOn := false, true, false
	undecided := false
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		switch {
		case undecided || err != nil:
			return nil
		case e.IsDir():
			if notPackageDir(root, p, e) {
				return filepath.SkipDir
			}
			return nil
		case !isLaunchOrParams(p) || !e.Type().IsRegular():
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > pkgScanBytes || !bytes.Contains(src, simTimeMarker) && !containsAny(src, execs) {
			return nil
		}
		if langOf(p) != langPython {
			// A parameter file or an XML/YAML launch: which node it sets is
			// not read here, so it must not matter.
			if setsSimTime(src, p) || containsAny(src, execs) {
				undecided = true
			}
			return nil
		}
		blocks := launchNodeBlocks(src)
		covered := make([]bool, len(src))
		for _, b := range blocks {
			for i := b[0]; i < b[1]; i++ {
				covered[i] = true
			}
			text := src[b[0]:b[1]]
			on := simTimeMentionsIn(src, p, false, b[0], b[1])
			ex := nodeExecRe.FindSubmatch(text)
			pk := nodePackageRe.FindSubmatch(text)
			switch {
			case ex != nil && pk != nil && string(pk[1]) == pkg && execs[string(ex[1])]:
				launched = true
				if on {
					wallOnly = false
				}
			case on:
				othersOn = true
			}
		}
		// A mention outside every Node(...) (SetParameter, an include's
		// arguments) that turns sim time on speaks for the whole launch.
		for at := 0; ; {
			i := bytes.Index(src[at:], simTimeMarker)
			if i < 0 {
				break
			}
			i += at
			at = i + len(simTimeMarker)
			if !covered[i] && simTimeMentionsIn(src, p, false, i, min(len(src), i+200)) {
				undecided = true
			}
		}
		return nil
	})
	return !undecided && launched && wallOnly && othersOn
}

// containsAny reports whether src names one of the executables in quotes.
func containsAny(src []byte, names map[string]bool) bool {
	for n := range names {
		if bytes.Contains(src, []byte("'"+n+"'")) || bytes.Contains(src, []byte(`"`+n+`"`)) {
			return true
		}
	}
	return false
}

// launchNodeBlocks returns the byte ranges of the Node(...) calls of a
// Python launch file.
func launchNodeBlocks(src []byte) [][2]int {
	var out [][2]int
	for _, loc := range launchNodeRe.FindAllIndex(src, -1) {
		start := loc[0]
		if start > 0 && (isIdentByte(src[start-1]) && src[start-1] != '.') {
			continue // LifecycleNode(, ComposableNode(: not read here
		}
		if inComment(src, start, langPython) {
			continue
		}
		depth, end := 0, -1
		for i := loc[1] - 1; i < len(src) && end < 0; i++ {
			switch src[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = i + 1
				}
			}
		}
		if end > 0 {
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

// executablesOf returns the executables the package at root builds from
// the file at rel (slash-separated, relative to root): console_scripts
// entry points naming its module, CMake executables listing it as a
// source, and a script installed as a program under its own name.
func executablesOf(root, pkg, rel string) map[string]bool {
	out := map[string]bool{}
	if strings.HasSuffix(rel, ".py") {
		mod := strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", ".")
		for _, name := range []string{"setup.py", "setup.cfg"} {
			b, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				continue
			}
			for _, m := range consoleScriptRe.FindAllSubmatch(b, -1) {
				if string(m[2]) == mod {
					out[string(m[1])] = true
				}
			}
		}
	}
	cm, err := os.ReadFile(filepath.Join(root, "CMakeLists.txt"))
	if err != nil {
		return out
	}
	cm = bytes.ReplaceAll(cm, []byte("${PROJECT_NAME}"), []byte(pkg))
	for _, m := range addExecutableRe.FindAllSubmatch(cm, -1) {
		for _, s := range strings.Fields(string(m[2])) {
			if strings.TrimPrefix(s, "${CMAKE_CURRENT_SOURCE_DIR}/") == rel {
				out[string(m[1])] = true
			}
		}
	}
	for _, m := range installProgsRe.FindAllSubmatch(cm, -1) {
		for _, s := range strings.Fields(string(m[1])) {
			if strings.TrimPrefix(s, "${CMAKE_CURRENT_SOURCE_DIR}/") == rel {
				out[filepath.Base(rel)] = true
			}
		}
	}
	return out
}
