package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/simclock/simclock/rules"
)

// SARIF 2.1.0 (OASIS), the subset simclock writes: one run of one tool,
// its checks as rules with help, its findings as results with locations
// (a file and a region for lint, the bag for bag inspect, a node and a
// topic as logical locations) and fixes, and tool notifications for what
// could not be read. Artifact URIs are relative to the scan root and name
// it through the uriBaseId SRCROOT, as code-scanning services expect.

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
	PhysicalLocation *sarifPhysical         `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind,omitempty"`
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

// Roots maps file paths, however they were typed (./x, x, /abs/x, ../x),
// to SARIF artifact locations relative to one scan root.
type Roots struct {
	root string // absolute, cleaned
}

// ScanRoot picks the root that SARIF artifact URIs are relative to: root
// when given; else the top of the git work tree holding the paths (what
// code scanning resolves URIs against); else the current directory when
// it holds every path; else the deepest directory holding them all.
func ScanRoot(root string, paths []string) (Roots, error) {
	if root != "" {
		abs, err := filepath.Abs(root)
		return Roots{root: abs}, err
	}
	common := ""
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return Roots{}, err
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
			return Roots{root: dir}, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if wd, err := os.Getwd(); err == nil && within(wd, common) {
		return Roots{root: wd}, nil
	}
	return Roots{root: common}, nil
}

// within reports whether path is dir or below it (both absolute, clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// baseIDs is the run's originalUriBaseIds: where SRCROOT is.
func (r Roots) baseIDs() map[string]sarifArtifact {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(r.root)}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return map[string]sarifArtifact{sarifRootID: {URI: u.String()}}
}

// artifact returns the location of path: relative to SRCROOT, or an
// absolute file URI for a file outside the root.
func (r Roots) artifact(path string) sarifArtifact {
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

// SARIF is one run of a tool, written as a SARIF 2.1.0 log by Write: the
// tool's checks as the run's rules, its findings as results.
type SARIF struct {
	// Version is simclock's, the driver's version.
	Version string
	// Checks are the tool's checks, the run's rules, in this order.
	Checks []rules.Check
	// RuleID names a check in SARIF; nil names it by its code. lint names
	// its rules by number (R27), as its users search and silence them.
	RuleID func(rules.Check) string
	// Roots makes file paths artifact locations (ScanRoot); the zero Roots
	// when no result names a file.
	Roots Roots
	// Notifications say what the tool could not do: files it could not
	// parse or read to the end.
	Notifications []Notification
	// Failed marks the run unsuccessful: it could not do all it was asked
	// (lint --strict with a file it could not parse, a bag it could not
	// read to its end).
	Failed bool
}

// A Result is one finding as a SARIF result.
type Result struct {
	rules.Finding
	// Artifact is the file or directory the finding is in when it names
	// no file (bag inspect: the bag); "" for none (doctor: a live graph).
	Artifact string
	// Edits repair the finding in its file: a SARIF fix (lint --fix's).
	Edits []Edit
}

// An Edit replaces the bytes [Start, End) of a file with New.
type Edit struct {
	Start, End int
	New        string
}

// A Notification is something the tool could not do, at a file (and
// line, when known) or at none.
type Notification struct {
	Level   rules.Severity
	Message string
	File    string
	Line    int
}

// Results wraps findings as results with no artifact or edits.
func Results(fs []rules.Finding, artifact string) []Result {
	out := make([]Result, len(fs))
	for i, f := range fs {
		out[i] = Result{Finding: f, Artifact: artifact}
	}
	return out
}

// Write writes the run with results as an indented SARIF 2.1.0 log.
func (s SARIF) Write(w io.Writer, results []Result) error {
	ruleID := s.RuleID
	if ruleID == nil {
		ruleID = func(c rules.Check) string { return string(c.Code) }
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "simclock", Version: s.Version,
			InformationURI: rules.Home, Rules: []sarifRule{}}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	if s.Roots.root != "" {
		run.OriginalURIBaseIDs = s.Roots.baseIDs()
	}
	index := map[rules.Code]int{}
	for i, c := range s.Checks {
		index[c.Code] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(c, ruleID(c)))
	}
	inv := sarifInvocation{ExecutionSuccessful: !s.Failed}
	for _, n := range s.Notifications {
		sn := sarifNotification{Level: n.Level.SARIFLevel(), Message: sarifText{n.Message}}
		if n.File != "" {
			loc := &sarifPhysical{ArtifactLocation: s.Roots.artifact(n.File)}
			if n.Line > 0 {
				loc.Region = &sarifRegion{StartLine: n.Line}
			}
			sn.Locations = []sarifLocation{{PhysicalLocation: loc}}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sn)
	}
	run.Invocations = []sarifInvocation{inv}
	for _, r := range results {
		i, ok := index[r.Code]
		if !ok {
			return fmt.Errorf("report: finding %s has no check in the run", r.Code)
		}
		run.Results = append(run.Results, s.result(r, ruleID(s.Checks[i]), i))
	}
	return writeSARIF(w, sarifLog{Runs: []sarifRun{run}})
}

// sarifRuleOf describes a check as a SARIF rule: its title, its help (why
// it matters, when the check says, and the fix) and its place in
// docs/rules.md.
func sarifRuleOf(c rules.Check, id string) sarifRule {
	full := c.Help
	if full == "" {
		full = c.Title + "."
	}
	uri := rules.Home + "/blob/main/" + rules.DocPath + "#finding-codes"
	link := "[" + string(c.Code) + " in docs/rules.md](" + uri + ")"
	if len(c.Rules) > 0 {
		uri = c.Rules[0].URL()
		var links []string
		for _, r := range c.Rules {
			links = append(links, "["+r.String()+" in docs/rules.md]("+r.URL()+")")
		}
		link = strings.Join(links, ", ")
	}
	return sarifRule{
		ID: id, Name: string(c.Code), ShortDescription: sarifText{c.Title}, FullDescription: sarifText{full},
		Help: sarifMarkdown{Text: full + " Fix: " + c.Fix + ".",
			Markdown: fmt.Sprintf("%s\n\n**Fix:** %s.\n\n%s", full, c.Fix, link)},
		HelpURI:              uri,
		DefaultConfiguration: sarifDefault{c.Severity.SARIFLevel()},
	}
}

// result is one finding as a SARIF result: where it is, physically (a
// file and a region in it, or the artifact) and logically (the node, the
// topic and the Time field), and its fix.
func (s SARIF) result(r Result, id string, index int) sarifResult {
	sr := sarifResult{RuleID: id, RuleIndex: index, Level: r.Severity.SARIFLevel(),
		Message: sarifText{r.Message + ". Fix: " + r.Fix}, Locations: []sarifLocation{}}
	var loc sarifLocation
	switch {
	case r.File != "":
		loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: s.Roots.artifact(r.File),
			Region: &sarifRegion{StartLine: r.Line, StartColumn: r.Col, EndLine: r.EndLine, EndColumn: r.EndCol}}
	case r.Artifact != "":
		loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: s.Roots.artifact(r.Artifact)}
	}
	if r.Node != "" {
		loc.LogicalLocations = append(loc.LogicalLocations, sarifLogicalLocation{Name: r.Node, Kind: "object"})
	}
	if r.Topic != "" {
		l := sarifLogicalLocation{Name: r.Topic, Kind: "resource"}
		if r.Field != "" {
			l = sarifLogicalLocation{Name: r.Field, FullyQualifiedName: r.Topic + "/" + r.Field, Kind: "member"}
		}
		loc.LogicalLocations = append(loc.LogicalLocations, l)
	}
	if loc.PhysicalLocation != nil || len(loc.LogicalLocations) > 0 {
		sr.Locations = append(sr.Locations, loc)
	}
	if len(r.Edits) > 0 && r.File != "" {
		ch := sarifArtifactChange{ArtifactLocation: s.Roots.artifact(r.File)}
		for _, e := range r.Edits {
			ch.Replacements = append(ch.Replacements, sarifReplacement{
				DeletedRegion:   sarifBytes{ByteOffset: e.Start, ByteLength: e.End - e.Start},
				InsertedContent: sarifText{e.New},
			})
		}
		sr.Fixes = []sarifFix{{Description: sarifText{r.Fix}, ArtifactChanges: []sarifArtifactChange{ch}}}
	}
	return sr
}
