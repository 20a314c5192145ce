package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/source"
)

// Unsuppressible reports whether a rule can be neither turned off nor suppressed: read,
// parse and dialect say that a file was not checked at all, and a merge gate that lets
// such a file pass checks nothing (SPEC §3: the file still counts as failed).
func Unsuppressible(rule string) bool {
	return rule == "read" || rule == "parse" || rule == "dialect"
}

// PlaceholderReason is the reason the language server's "ignore with a reason" quick
// fix writes for the user to replace. Until it is replaced, the suppression is one
// without a reason: it hides nothing, and is reported (unused-suppression) where it
// is, saying so. A placeholder must never pass for a reason.
const PlaceholderReason = "TODO: say why this is safe"

// placeholderMsg says what to do about a suppression whose reason is the placeholder.
const placeholderMsg = "the reason is still the placeholder %q: replace it with why this is safe; until then it hides nothing"

// Hideable reports whether an ignore entry, an inline ignore or a baseline entry can
// hide a finding of rule: not one that says the file was not checked (Unsuppressible),
// nor unused-suppression, which is mended by removing the suppression, never accepted.
// suppress and WriteBaseline share it, so a baseline never records what it cannot hide.
func Hideable(rule string) bool { return rule != "unused-suppression" && !Unsuppressible(rule) }

// inlinePrefix starts an inline suppression in a YAML comment:
//
//	# dws:ignore RULE[,RULE…] -- reason
const inlinePrefix = "dws:ignore"

// Baseline is a list of accepted findings keyed by (file, rule, pointer), never by line,
// so that edits elsewhere in a file do not invalidate it. Each entry hides exactly one
// finding: a statement that had two accepted findings and now has three shows the third.
type Baseline struct {
	// Path is the baseline file; entry files are relative to its directory.
	Path    string
	Entries []BaselineEntry
	doc     *source.Document
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	File    string `json:"file"`
	Rule    string `json:"rule"`
	Pointer string `json:"pointer"`
}

// IsBaseline reports whether root has the shape of a baseline file dws writes: an
// object with exactly the members version (a number) and findings (an array).
func IsBaseline(root *source.Node) bool {
	if root == nil || root.Kind != source.Object || len(root.Members) != 2 {
		return false
	}
	v, fs := root.Get("version"), root.Get("findings")
	return v != nil && v.Kind == source.Number && fs != nil && fs.Kind == source.Array
}

type baselineFile struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// LoadBaseline reads a baseline written by WriteBaseline.
func LoadBaseline(path string) (*Baseline, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading baseline %w", err)
	}
	doc, entries, err := parseBaseline(path, data)
	if err != nil {
		return nil, fmt.Errorf("reading baseline %s: %w", path, err)
	}
	return &Baseline{Path: path, Entries: entries, doc: doc}, nil
}

// parseBaseline reads a baseline strictly: exactly the keys WriteBaseline writes, so a
// hand-edited "Findings" beside "findings" (which encoding/json would fold together) or
// a misspelt key is an error rather than an entry silently lost or gained.
func parseBaseline(path string, data []byte) (*source.Document, []BaselineEntry, error) {
	doc, err := source.Parse(path, data, source.JSON)
	if err != nil {
		return nil, nil, err
	}
	bad := func(n *source.Node, format string, args ...any) error {
		return fmt.Errorf("%d:%d: %s", n.Span.Start.Line, n.Span.Start.Col, fmt.Sprintf(format, args...))
	}
	root := doc.Root
	if root.Kind != source.Object {
		return nil, nil, bad(root, "not a dws baseline (an object with version 1 and findings)")
	}
	for _, m := range root.Members {
		if m.Key != "version" && m.Key != "findings" {
			return nil, nil, bad(m.Value, "unknown key %q (want version, findings)", m.Key)
		}
	}
	if v := root.Get("version"); v == nil || v.Kind != source.Number || v.Text != "1" {
		return nil, nil, bad(root, "not a dws baseline (version 1)")
	}
	list := root.Get("findings")
	if list == nil || list.Kind != source.Array {
		return nil, nil, bad(root, "findings: want a list")
	}
	entries := make([]BaselineEntry, 0, len(list.Items))
	for _, it := range list.Items {
		if it.Kind != source.Object {
			return nil, nil, bad(it, "a finding is an object {file, rule, pointer}")
		}
		var e BaselineEntry
		for _, m := range it.Members {
			if m.Value.Kind != source.String {
				return nil, nil, bad(m.Value, "%s: want a string", m.Key)
			}
			switch m.Key {
			case "file":
				e.File = m.Value.Text
			case "rule":
				e.Rule = m.Value.Text
			case "pointer":
				e.Pointer = m.Value.Text
			default:
				return nil, nil, bad(m.Value, "unknown key %q (want file, rule, pointer)", m.Key)
			}
		}
		if e.File == "" || e.Rule == "" {
			return nil, nil, bad(it, "a finding needs a file and a rule")
		}
		entries = append(entries, e)
	}
	return doc, entries, nil
}

// WriteBaseline records the diagnostics of res that a baseline can hide (Hideable) in
// the baseline at path, and returns how many it recorded and the others, which it left
// out: an entry for a parse finding would match nothing on every later run, and be
// written again on every rewrite. Entries for files this run checked are replaced by its
// findings; entries for other files are kept (but for rules no baseline hides), so that
// hooks recording their own subsets at once (pre-commit runs them in parallel) all land.
// The update holds the same lock as dws checksum --write and is atomic.
func WriteBaseline(path string, res *Result) (recorded int, left []Diagnostic, err error) {
	dir := filepath.Dir(absOrSelf(path))
	rel := func(file string) string {
		r, err := filepath.Rel(dir, absOrSelf(file))
		if err != nil {
			r = file
		}
		return filepath.ToSlash(r)
	}
	checked := map[string]bool{}
	var record []BaselineEntry
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			// Findings about the config or the baseline (Extra) are never suppressed.
			if f.Extra || !Hideable(d.Rule) {
				left = append(left, d)
				continue
			}
			record = append(record, BaselineEntry{File: rel(d.File), Rule: d.Rule, Pointer: d.Pointer})
		}
		if !f.Extra {
			checked[rel(f.Path)] = true
		}
	}
	err = canonical.Update(path, 0o644, func(old []byte) ([]byte, error) {
		bf := baselineFile{Version: 1, Findings: []BaselineEntry{}}
		if old != nil {
			_, kept, err := parseBaseline(path, old)
			if err != nil {
				return nil, fmt.Errorf("%s holds something other than a dws baseline, so it is not overwritten: %w", path, err)
			}
			for _, e := range kept {
				if !checked[e.File] && Hideable(e.Rule) {
					bf.Findings = append(bf.Findings, e)
				}
			}
		}
		bf.Findings = append(bf.Findings, record...)
		slices.SortFunc(bf.Findings, func(a, b BaselineEntry) int {
			return cmp.Or(strings.Compare(a.File, b.File), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Pointer, b.Pointer))
		})
		data, err := json.MarshalIndent(bf, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	})
	if err != nil {
		return 0, nil, err
	}
	return len(record), Sort(left), nil
}

// WriteFileAtomic writes data to path so that readers, and a second dws writing at the
// same time, never see half a file.
func WriteFileAtomic(path string, data []byte) error { return canonical.WriteFile(path, data, 0o644) }

type inlineIgnore struct {
	line    int // the line it applies to
	at      source.Pos
	rules   []string
	problem string // why it is malformed; it then suppresses nothing
	used    bool
}

// suppress applies inline ignores, config ignores and the baseline, in that order, and
// reports the suppressions that matched nothing.
func (l *Linter) suppress(res *Result) {
	type entryUse struct{ matchedFile, used bool }
	ignores := make([]entryUse, len(l.Config.Ignore))
	var baseUsed []bool
	baseFiles := map[string]bool{}
	if l.Baseline != nil {
		baseUsed = make([]bool, len(l.Baseline.Entries))
	}
	for fi := range res.Files {
		fr := &res.Files[fi]
		inl := fr.inline
		// The path as the ignore entries match it: needed for a file with findings,
		// and for every file when there are entries (to judge them unused).
		var rel string
		if len(fr.Diagnostics) > 0 || len(l.Config.Ignore) > 0 {
			rel = l.Config.Rel(fr.Path)
		}
		var baseRel string
		if l.Baseline != nil {
			baseRel = relTo(l.Baseline.Path, fr.Path)
			baseFiles[baseRel] = true
		}
		kept := fr.Diagnostics[:0]
		for _, d := range fr.Diagnostics {
			if !Hideable(d.Rule) {
				kept = append(kept, d)
				continue
			}
			hidden := false
			for i := range inl {
				if inl[i].line == d.Line && slices.Contains(inl[i].rules, d.Rule) {
					inl[i].used, hidden = true, true
				}
			}
			for i, ig := range l.Config.Ignore {
				if ok, _ := doublestar.Match(ig.Path, rel); !ok || ig.Reason == PlaceholderReason {
					continue
				}
				ignores[i].matchedFile = true
				if (len(ig.Rules) == 0 || slices.Contains(ig.Rules, d.Rule)) && pointerWithin(d.Pointer, ig.Pointer) {
					ignores[i].used, hidden = true, true
				}
			}
			if l.Baseline != nil && !hidden {
				for i, e := range l.Baseline.Entries {
					if !baseUsed[i] && e.File == baseRel && e.Rule == d.Rule && e.Pointer == d.Pointer {
						baseUsed[i], hidden = true, true
						break
					}
				}
			}
			if hidden {
				res.Suppressed++
			} else {
				kept = append(kept, d)
			}
		}
		fr.Diagnostics = kept
		// The ignore entries must also see files without findings, to judge them unused.
		for i, ig := range l.Config.Ignore {
			if ok, _ := doublestar.Match(ig.Path, rel); ok {
				ignores[i].matchedFile = true
			}
		}
		for _, in := range inl {
			if in.used {
				continue
			}
			msg := in.problem
			if msg == "" {
				msg = fmt.Sprintf("dws:ignore %s matches no finding on line %d; remove it", strings.Join(in.rules, ","), in.line)
			}
			f := &File{Path: fr.Path, Doc: fr.Doc, Config: l.Config, reg: l.Registry}
			f.ReportAt("unused-suppression", "", source.Span{Start: in.at, End: in.at}, msg)
			fr.Diagnostics = append(fr.Diagnostics, f.diags...)
		}
	}
	if l.Config.Path != "" {
		cf := &File{Path: display(relCwd(l.Config.Path)), Config: l.Config, reg: l.Registry}
		for i, ig := range l.Config.Ignore {
			if ig.Reason == PlaceholderReason {
				pos := source.Pos{Line: int32(ig.Line), Col: int32(ig.Column)}
				cf.ReportAt("unused-suppression", "", source.Span{Start: pos, End: pos},
					fmt.Sprintf("ignore entry for %q: "+placeholderMsg, ig.Path, PlaceholderReason))
				continue
			}
			if ignores[i].matchedFile && !ignores[i].used {
				pos := source.Pos{Line: int32(ig.Line), Col: int32(ig.Column)}
				cf.ReportAt("unused-suppression", "", source.Span{Start: pos, End: pos},
					fmt.Sprintf("ignore entry for %q matches no finding; remove it", ig.Path))
			}
		}
		res.Extra = append(res.Extra, cf.diags...)
	}
	if l.Baseline != nil {
		bf := &File{Path: display(relCwd(l.Baseline.Path)), Doc: l.Baseline.doc, Config: l.Config, reg: l.Registry}
		for i, e := range l.Baseline.Entries {
			if baseFiles[e.File] && !baseUsed[i] {
				bf.Report("unused-suppression", fmt.Sprintf("/findings/%d", i),
					fmt.Sprintf("baseline entry %s %s %s matches no finding; rewrite the baseline", e.File, e.Rule, e.Pointer))
			}
		}
		res.Extra = append(res.Extra, bf.diags...)
	}
}

// errorsLeft reports whether an error of ds, the findings of the file at path, is left
// once inline, config and baseline suppressions are applied as suppress applies them
// (marking nothing as used): whether the file validates, before the run is whole.
func (l *Linter) errorsLeft(path string, inline []inlineIgnore, ds []Diagnostic) bool {
	var rel, baseRel string
	var baseUsed []bool
	if len(l.Config.Ignore) > 0 {
		rel = l.Config.Rel(path)
	}
	if l.Baseline != nil {
		baseRel = relTo(l.Baseline.Path, path)
		baseUsed = make([]bool, len(l.Baseline.Entries))
	}
	for _, d := range Sort(slices.Clone(ds)) {
		if d.Severity != Error {
			continue
		}
		if !Hideable(d.Rule) {
			return true
		}
		hidden := slices.ContainsFunc(inline, func(in inlineIgnore) bool {
			return in.line == d.Line && slices.Contains(in.rules, d.Rule)
		})
		for _, ig := range l.Config.Ignore {
			if ok, _ := doublestar.Match(ig.Path, rel); ok && ig.Reason != PlaceholderReason && (len(ig.Rules) == 0 || slices.Contains(ig.Rules, d.Rule)) && pointerWithin(d.Pointer, ig.Pointer) {
				hidden = true
			}
		}
		if l.Baseline != nil && !hidden {
			for i, e := range l.Baseline.Entries {
				if !baseUsed[i] && e.File == baseRel && e.Rule == d.Rule && e.Pointer == d.Pointer {
					baseUsed[i], hidden = true, true
					break
				}
			}
		}
		if !hidden {
			return true
		}
	}
	return false
}

// inlineIgnores reads `# dws:ignore RULE[,RULE] -- reason` comments. A comment applies to
// the line of the key or value it is attached to: on that line, or on the line above it.
// A malformed one (no rule, no reason, an unknown rule, a rule that cannot be suppressed)
// suppresses nothing and says why.
func (l *Linter) inlineIgnores(doc *source.Document) []inlineIgnore {
	if doc == nil {
		return nil
	}
	var out []inlineIgnore
	for _, c := range doc.Comments {
		text, ok := strings.CutPrefix(strings.TrimSpace(c.Text), inlinePrefix)
		if !ok {
			continue
		}
		in := inlineIgnore{line: c.Line, at: c.Span.Start}
		names, reason, _ := strings.Cut(text, "--")
		in.rules = strings.FieldsFunc(names, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		switch {
		case len(in.rules) == 0:
			in.problem = "dws:ignore names no rule (write # dws:ignore RULE -- reason)"
		case strings.TrimSpace(reason) == "":
			in.problem = "dws:ignore needs a reason (write # dws:ignore RULE -- reason)"
		case strings.TrimSpace(reason) == PlaceholderReason:
			in.problem = "dws:ignore: " + fmt.Sprintf(placeholderMsg, PlaceholderReason)
		}
		for _, r := range in.rules {
			if _, known := l.Registry.Lookup(r); !known && in.problem == "" {
				in.problem = fmt.Sprintf("dws:ignore names %q, which is not a rule (%s)", r, l.Registry.Unknown(r))
			} else if Unsuppressible(r) && in.problem == "" {
				in.problem = fmt.Sprintf("dws:ignore cannot suppress %s: a file that was not checked must not pass", r)
			} else if rule, _ := l.Registry.Lookup(r); in.problem == "" {
				switch {
				case rule.Inline == InlineNever:
					in.problem = fmt.Sprintf("dws:ignore cannot suppress %s: a file cannot waive its own integrity check; use ignore: in .dws.yaml or the baseline", r)
				case rule.Inline == InlineIfConfigured && !l.Config.InlineSecurityWaivers:
					in.problem = fmt.Sprintf("dws:ignore cannot suppress %s: it guards security, and .dws.yaml does not allow inline_security_waivers; use ignore: in .dws.yaml", r)
				}
			}
		}
		if in.problem != "" {
			in.rules = nil
		}
		out = append(out, in)
	}
	return out
}

func pointerWithin(p, prefix string) bool {
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix+"/")
}

func relTo(base, file string) string {
	rel, err := filepath.Rel(filepath.Dir(absOrSelf(base)), absOrSelf(file))
	if err != nil {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// relCwd shows a path relative to the working directory, as users wrote it and as
// output must be to stay the same on every machine; an absolute path only when there is
// no relative one.
func relCwd(p string) string {
	wd, err := workdir()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}
