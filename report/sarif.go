package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/dwsdev/dws/lint"
)

// sarifWriter writes SARIF 2.1.0, the format code-scanning services (GitHub, Azure
// DevOps, IDE viewers) read.
//
// Output is byte-stable: every rule of the registry is listed, in registry order, so
// ruleIndex does not depend on which rules fired, and run.originalUriBaseIds is left
// out because it would hold the machine's working directory. Relative paths carry
// uriBaseId %SRCROOT%, which the consumer resolves (GitHub: the checkout root), so
// dws should be run from the root of the repository it checks.
type sarifWriter struct{ opts Options }

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifSrcRoot = "%SRCROOT%"
	// sarifInformationURI is dws's home; a rule's helpUri is /rules/ID under it.
	sarifInformationURI = "https://dws.dev"
	// sarifFingerprint names the partial fingerprint: the baseline's key (SPEC §5), so
	// a finding keeps its identity when lines move. Bump /v1 if the inputs change.
	sarifFingerprint = "dwsFindingKey/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool sarifTool `json:"tool"`
	// ColumnKind is unicodeCodePoints because dws columns count code points (SPEC §5);
	// SARIF's default is UTF-16 code units.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
	// Invocations says how the run ended, when the caller knows (Options.Invocation).
	Invocations []sarifInvocation `json:"invocations,omitempty"`
}

type sarifInvocation struct {
	// ExecutionSuccessful is true when dws ran to the end, findings or not.
	ExecutionSuccessful bool   `json:"executionSuccessful"`
	ExitCode            int    `json:"exitCode"`
	StartTimeUTC        string `json:"startTimeUtc"`
	EndTimeUTC          string `json:"endTimeUtc"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string               `json:"id"`
	ShortDescription     *sarifText           `json:"shortDescription,omitempty"`
	FullDescription      *sarifText           `json:"fullDescription,omitempty"`
	Help                 *sarifHelp           `json:"help,omitempty"`
	HelpURI              string               `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration   `json:"defaultConfiguration"`
	Properties           *sarifRuleProperties `json:"properties,omitempty"`
}

type sarifConfiguration struct {
	// Level is always written: SARIF's default is "warning", which would misstate
	// error and info rules.
	Level   string `json:"level"`
	Enabled *bool  `json:"enabled,omitempty"`
}

type sarifRuleProperties struct {
	Dialect string `json:"dialect"`
}

type sarifText struct {
	Text string `json:"text"`
}

// sarifHelp is what code scanning shows under a finding: the rule's documentation and
// its failing and passing examples.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	Message          *sarifText     `json:"message,omitempty"`
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
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// Write prints one SARIF log with one run: the rule catalog and a result per diagnostic.
func (s *sarifWriter) Write(w io.Writer, res *lint.Result) error {
	driver := sarifDriver{
		Name:           "dws",
		Version:        s.opts.Version,
		InformationURI: sarifInformationURI,
		Rules:          []sarifRule{},
	}
	index := map[string]int{}
	if s.opts.Registry != nil {
		for i, r := range s.opts.Registry.Rules() {
			index[r.ID] = i
			driver.Rules = append(driver.Rules, sarifRuleOf(r))
		}
	}
	results := []sarifResult{}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			results = append(results, sarifResultOf(d, index))
		}
	}
	var invocations []sarifInvocation
	if inv := s.opts.Invocation; inv != nil {
		invocations = []sarifInvocation{{
			ExecutionSuccessful: true,
			ExitCode:            inv.ExitCode,
			StartTimeUTC:        inv.Start.UTC().Format(time.RFC3339Nano),
			EndTimeUTC:          inv.End.UTC().Format(time.RFC3339Nano),
		}}
	}
	return writeJSON(w, sarifLog{
		Schema:  sarifSchema,
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:        sarifTool{Driver: driver},
			ColumnKind:  "unicodeCodePoints",
			Results:     results,
			Invocations: invocations,
		}},
	}, false)
}

func sarifRuleOf(r lint.Rule) sarifRule {
	sr := sarifRule{ID: r.ID, DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)}}
	if r.Severity == lint.Off {
		off := false
		sr.DefaultConfiguration.Enabled = &off
	}
	if r.Summary != "" {
		sr.ShortDescription = &sarifText{Text: r.Summary}
	}
	if r.Doc != "" {
		sr.FullDescription = &sarifText{Text: r.Doc}
		sr.Help = sarifHelpOf(r)
		sr.HelpURI = sarifInformationURI + "/rules/" + r.ID
	}
	if r.Dialect != "" {
		sr.Properties = &sarifRuleProperties{Dialect: r.Dialect}
	}
	return sr
}

func sarifResultOf(d lint.Diagnostic, index map[string]int) sarifResult {
	sr := sarifResult{
		RuleID:  d.Rule,
		Level:   sarifLevel(d.Severity),
		Message: sarifText{Text: d.Message},
		Locations: []sarifLocation{
			sarifLocationOf(d.File, d.Pointer, d.Line, d.Column, d.EndLine, d.EndColumn),
		},
		PartialFingerprints: map[string]string{sarifFingerprint: findingKey(d)},
	}
	if i, ok := index[d.Rule]; ok {
		sr.RuleIndex = &i
	}
	for i, r := range d.Related {
		loc := sarifLocationOf(r.File, r.Pointer, r.Line, r.Column, 0, 0)
		loc.ID = &i
		if r.Message != "" {
			loc.Message = &sarifText{Text: r.Message}
		}
		sr.RelatedLocations = append(sr.RelatedLocations, loc)
	}
	return sr
}

// sarifLevel maps a severity to SARIF's level. Off only describes a rule's default and
// goes with enabled: false.
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	case lint.Info:
		return "note"
	}
	return "none"
}

func sarifLocationOf(file, pointer string, line, col, endLine, endCol int) sarifLocation {
	loc := sarifLocation{}
	if file != "" {
		uri, base := sarifURI(file)
		loc.PhysicalLocation = &sarifPhysical{
			ArtifactLocation: sarifArtifact{URI: uri, URIBaseID: base},
			Region:           sarifRegionOf(line, col, endLine, endCol),
		}
	}
	if pointer != "" {
		loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: pointer, Kind: "element"}}
	}
	return loc
}

// sarifRegionOf returns nil when the position is unknown: SARIF lines and columns start
// at 1, and a region without startLine would be read as a byte range. Parts of the end
// that do not follow the start are dropped rather than written as a reversed region.
func sarifRegionOf(line, col, endLine, endCol int) *sarifRegion {
	if line < 1 {
		return nil
	}
	r := &sarifRegion{StartLine: line}
	if col >= 1 {
		r.StartColumn = col
	}
	if endLine < line {
		return r
	}
	r.EndLine = endLine
	// endColumn is exclusive in both dws and SARIF; on one line it must not precede
	// the start (equal is an empty region, which SARIF allows).
	if endCol >= 1 && (endLine > line || endCol >= col) {
		r.EndColumn = endCol
	}
	return r
}

// sarifURI turns a file path as shown to the user into a URI reference: relative paths
// stay relative to %SRCROOT%, absolute ones become file URIs. Spaces, non-ASCII and
// other characters a URI cannot hold are percent-encoded.
func sarifURI(file string) (uri, base string) {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) || path.IsAbs(p) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x → /C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String(), ""
	}
	p = path.Clean(p)
	// url.URL.String prefixes "./" when the first segment holds a colon, so that the
	// reference is not read as a scheme.
	return (&url.URL{Path: p}).String(), sarifSrcRoot
}

// findingKey hashes what identifies a finding across edits, the baseline's key (file,
// rule, pointer); the path is slash-separated so the key does not depend on the OS.
func findingKey(d lint.Diagnostic) string {
	h := sha256.New()
	for _, s := range []string{filepath.ToSlash(d.File), d.Rule, d.Pointer} {
		_, _ = io.WriteString(h, s) // a hash.Hash never returns an error
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sarifHelpOf(r lint.Rule) *sarifHelp {
	text := r.Doc + "\n\nRun dws explain " + r.ID + " for a failing and a passing example."
	var md strings.Builder
	md.WriteString(r.Doc)
	for _, ex := range []struct {
		label string
		e     lint.Example
	}{{"Fails", r.Fail}, {"Passes", r.Pass}} {
		if ex.e.Text == "" {
			continue
		}
		fence := "```"
		for strings.Contains(ex.e.Text, fence) {
			fence += "`"
		}
		lang := "yaml"
		if strings.HasSuffix(ex.e.Name, ".json") {
			lang = "json"
		}
		md.WriteString("\n\n" + ex.label + " (`" + ex.e.Name + "`):\n\n" + fence + lang + "\n" + strings.TrimRight(ex.e.Text, "\n") + "\n" + fence)
	}
	return &sarifHelp{Text: text, Markdown: md.String()}
}
