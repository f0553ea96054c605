package cli

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0 (OASIS), the subset simclock writes: one run, its rules with
// help, results with locations and fixes, and tool notifications for files
// that could not be read. Artifact URIs are relative to the scan root and
// name it through the uriBaseId SRCROOT, as code-scanning services expect.

// sarifSchema is the address of the SARIF 2.1.0 JSON schema.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// sarifRootID names the scan root in artifact locations.
const sarifRootID = "SRCROOT"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	Invocations        []sarifInvocation        `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                   `json:"columnKind"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifText     `json:"shortDescription"`
	FullDescription      sarifText     `json:"fullDescription"`
	Help                 sarifMarkdown `json:"help"`
	HelpURI              string        `json:"helpUri"`
	DefaultConfiguration sarifDefault  `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMarkdown struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifBytes `json:"deletedRegion"`
	InsertedContent sarifText  `json:"insertedContent"`
}

// sarifBytes is a region by byte offset; an insertion at the start of a
// file has offset 0 and length 0, so neither may be omitted.
type sarifBytes struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

// writeSARIF writes log as indented JSON.
func writeSARIF(w io.Writer, log sarifLog) error {
	log.Schema, log.Version = sarifSchema, "2.1.0"
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifRoots maps file paths, however they were typed (./x, x, /abs/x,
// ../x), to artifact locations relative to one scan root.
type sarifRoots struct {
	root string // absolute, cleaned
}

// scanRoot picks the root that SARIF artifact URIs are relative to: root
// when given; else the top of the git work tree holding the paths (what
// code scanning resolves URIs against); else the current directory when
// it holds every path; else the deepest directory holding them all.
func scanRoot(root string, paths []string) (sarifRoots, error) {
	if root != "" {
		abs, err := filepath.Abs(root)
		return sarifRoots{root: abs}, err
	}
	common := ""
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return sarifRoots{}, err
		}
		if info, err := os.Stat(abs); err == nil && !info.IsDir() {
			abs = filepath.Dir(abs)
		}
		if common == "" {
			common = abs
		}
		for !within(common, abs) {
			common = filepath.Dir(common)
		}
	}
	for dir := common; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return sarifRoots{root: dir}, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if wd, err := os.Getwd(); err == nil && within(wd, common) {
		return sarifRoots{root: wd}, nil
	}
	return sarifRoots{root: common}, nil
}

// within reports whether path is dir or below it (both absolute, clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// baseIDs is the run's originalUriBaseIds: where SRCROOT is.
func (r sarifRoots) baseIDs() map[string]sarifArtifact {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(r.root)}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return map[string]sarifArtifact{sarifRootID: {URI: u.String()}}
}

// artifact returns the location of path: relative to SRCROOT, or an
// absolute file URI for a file outside the root.
func (r sarifRoots) artifact(path string) sarifArtifact {
	abs, err := filepath.Abs(path)
	if err != nil {
		return sarifArtifact{URI: filepath.ToSlash(path)}
	}
	if !within(r.root, abs) {
		return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}
	}
	rel, _ := filepath.Rel(r.root, abs)
	return sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: sarifRootID}
}
