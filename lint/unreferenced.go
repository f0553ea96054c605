package lint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// pyNodeCalled are the methods of rclpy's Node and LifecycleNode that the
// framework calls by name on a subclass that overrides them: the lifecycle
// transitions, and destroy_node (rclpy's shutdown path and the executor's
// users call it on the base).
var pyNodeCalled = map[string]bool{
	"on_configure": true, "on_cleanup": true, "on_shutdown": true, "on_activate": true,
	"on_deactivate": true, "on_error": true, "destroy_node": true, "main": true,
}

// unreferenced reports whether the method enclosing f (f itself, or the
// method a lambda or nested def of f is written in) is one nothing in the
// package can run: a Python method, not decorated, not a dunder and not a
// name the framework calls (pyNodeCalled), of a class whose only bases are
// rclpy's Node or LifecycleNode (imported by those names from rclpy),
// whose name appears nowhere in the files of its package (the directory
// holding package.xml; any file, launch files, setup.py and strings
// included; comments excluded) but in its own def. Round 27: a window in a
// real-robot node's helper whose only call, in the constructor, was
// commented out. A package too large to scan, or a file too large to
// read, is taken to refer to it. The name is read as a word, whatever its
// receiver, so a same-named method of another object counts.
func (c *checker) unreferenced(f *fn) bool {
	f = outermost(f)
	if c.root == "" || f.u == nil || f.u.lang != langPython || f.cls == nil || !f.cls.isNode || f.ctor || f.n == nil ||
		f.name == "" || strings.HasPrefix(f.name, "__") || pyNodeCalled[f.name] {
		return false
	}
	for _, b := range f.cls.bases {
		if b != "Node" && b != "LifecycleNode" || !strings.HasPrefix(f.u.imports[b], "rclpy.") {
			return false // another Node, or written qualified (rclpy.node.Node): left out
		}
	}
	if c.dead == nil {
		c.dead = map[*fn]bool{}
	}
	if v, ok := c.dead[f]; ok {
		return v
	}
	v := fileExists(filepath.Join(c.root, "package.xml")) && c.scanUnreferenced(f)
	c.dead[f] = v
	return v
}

func (c *checker) scanUnreferenced(f *fn) bool {
	name := f.n.child("name")
	if name == nil || f.u.text(name) != f.name {
		return false
	}
	// A decorator may register the method (or make it a property).
	before := bytes.TrimRight(f.u.src[:f.n.start], " \t\r\n")
	if line := before[bytes.LastIndexByte(before, '\n')+1:]; bytes.HasPrefix(bytes.TrimSpace(line), []byte("@")) {
		return false
	}
	if namedIn(f.u.src, f.name, langPython, name.start) {
		return false
	}
	own, _ := filepath.Abs(f.u.path)
	named, files := false, 0
	err := filepath.WalkDir(c.root, func(path string, e fs.DirEntry, err error) error {
		switch {
		case named:
			return filepath.SkipAll
		case err != nil:
			named = true // unreadable: it may name the method
			return filepath.SkipAll
		}
		if e.IsDir() {
			if notPackageDir(c.root, path, e) {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if abs, _ := filepath.Abs(path); abs == own {
			return nil
		}
		if files++; files > pkgScanFiles {
			named = true
			return filepath.SkipAll
		}
		l := langOf(path)
		info, err := e.Info()
		if err != nil || info.Size() > pkgScanBytes {
			named = err != nil || l != langNone
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || namedIn(b, f.name, l, -1) {
			named = true
		}
		return nil
	})
	return err == nil && !named
}

// namedIn reports whether name appears in src as a whole word outside a
// comment, other than at offset skip.
func namedIn(src []byte, name string, l lang, skip int) bool {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(name))
		if k < 0 {
			return false
		}
		at := i + k
		i = at + len(name)
		if at == skip || at > 0 && word(src[at-1]) || i < len(src) && word(src[i]) || inComment(src, at, l) {
			continue
		}
		return true
	}
}
