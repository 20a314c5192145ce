package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two versions of definitions: changes and their class, the version verdict, path counts, in-flight runs",
		ArgsUsage: "OLD NEW | --against GIT_REF [PATH…]",
		Description: `Compares the definitions of OLD with those of NEW (two files, or two directories walked
as dws validate walks them), paired by unit (cortex:NAME, dws-workflow:NAME,
direclaw:ORCHESTRATOR/WORKFLOW, ensemble:NAME), never by path; renames are declared
in .dws.yaml (renames:). For each unit it prints the nodes and edges added (+),
removed (-) and changed (~), each classed breaking, feature or cosmetic (docs/change.md),
the exact path counts kept, lost and gained per end state, whether a run persisted at
each node of OLD can go on under NEW, and the version verdict (version-not-bumped,
version-bump-too-small, version-decreased).

--against GIT_REF reads the old files from git's objects at GIT_REF (git runs as a
subprocess; the work tree and index are never touched) and compares them with the
files in the work tree, PATHs (default: the current directory) selecting both; a
unit moved into or out of the PATHs is paired with its other side elsewhere in the
repository.

--ack FILE names changes approved by their fingerprint (the JSON report's), each with
a reason:

    acknowledged:
      - { fingerprint: 7c3080fcd535b143, reason: "manager approval retired; no runs left" }

An acknowledged change is still reported, marked, but does not count for --fail-on;
an entry that matches no change is a warning.

The version rules are errors unless rules: in .dws.yaml says otherwise (dws explain
version-bump-too-small).

Exit status: 0 no version error and no change at or above --fail-on; 1 otherwise;
2 usage or configuration error, or a GIT_REF that cannot be read; 3 dws failed.`,
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(report.DiffFormats, ", ")}, report.DiffFormats...),
			oneOf(&cli.StringFlag{Name: "fail-on", Usage: "also exit 1 on a change of this class or higher: breaking, feature"}, "breaking", "feature"),
			&cli.StringFlag{Name: "against", Usage: "compare the work tree with this git revision"},
			&cli.StringFlag{Name: "ack", Usage: "a file of approved changes by fingerprint: they do not count for --fail-on", TakesFile: true},
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
			&cli.DurationFlag{Name: "max-time", Value: time.Minute, Usage: "stop counting a definition's paths after this long (0: no limit)"},
		},
		Action: diff,
	}
}

func diff(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains(report.DiffFormats, format) {
		return usagef("--format: %q is not one of %s", format, strings.Join(report.DiffFormats, ", "))
	}
	failOn := change.NoChange
	if f := c.String("fail-on"); f != "" {
		cl, ok := change.ParseClass(f)
		if !ok || cl == change.Cosmetic {
			return usagef("--fail-on: %q is not one of breaking, feature", f)
		}
		failOn = cl
	}
	args := c.Args().Slice()
	ref := c.String("against")
	if ref == "" && len(args) != 2 {
		return usagef("diff: want OLD and NEW, or --against GIT_REF [PATH…]")
	}
	s, l, err := loadLinter(c.String("config"))
	if err != nil {
		return err
	}
	var ack map[string]string
	if f := c.String("ack"); f != "" {
		if ack, err = readAck(f); err != nil {
			return usageError{err}
		}
	}
	opts := sim.Options{EdgesOnly: true, MaxTime: c.Duration("max-time")}
	var old, nw []*change.Unit
	var problems []change.Problem
	defs := map[*change.Unit]sim.Definition{}
	// present are the PATHs that are there in the work tree (--against).
	var present []string
	if ref != "" {
		if len(args) == 0 {
			args = []string{"."}
		}
		files, err := gitFiles(l, ref, args)
		if err != nil {
			return err
		}
		for _, f := range files {
			us, p := unitsOf(l, f.path, f.data, false, opts, defs)
			old = append(old, us...)
			problems = append(problems, p...)
		}
		// A PATH that is gone from the work tree (a deleted file) has only an old side.
		present = nil
		for _, a := range args {
			if _, err := os.Lstat(a); err == nil {
				present = append(present, a)
			}
		}
		if len(present) > 0 {
			var p []change.Problem
			if nw, p, err = diskUnits(l, present, true, opts, defs); err != nil {
				return err
			}
			problems = append(problems, p...)
		}
		moved, err := outsidePaths(l, ref, args, files, old, nw, s.cfg.Renames, opts, defs)
		if err != nil {
			return err
		}
		old = append(old, moved.old...)
		nw = append(nw, moved.new...)
	} else {
		// OLD and NEW are what the user compares: one that is not there is a mistake in
		// the command, not a unit added or removed.
		for _, a := range args {
			if _, err := os.Stat(a); err != nil {
				return usagef("diff: %s: %v", a, errors.Unwrap(err))
			}
		}
		var p1, p2 []change.Problem
		if old, p1, err = diskUnits(l, args[:1], false, opts, defs); err != nil {
			return err
		}
		if nw, p2, err = diskUnits(l, args[1:], false, opts, defs); err != nil {
			return err
		}
		problems = slices.Concat(p1, p2)
	}
	rep := change.Diff(old, nw, s.cfg.Renames, sim.Options{MaxTime: c.Duration("max-time")})
	roots := present
	if ref == "" {
		roots = scenarioRoots(args[1])
	}
	if err := diffScenarios(rep, roots, defs); err != nil {
		return err
	}
	rep.Problems = append(problems, rep.Problems...)
	for _, fp := range rep.Acknowledge(ack) {
		fmt.Fprintf(c.App.ErrWriter, "dws: warning: %s acknowledges %s, which is no change of this diff (delete the entry)\n", printable.String(c.String("ack")), fp)
	}
	// The version rules' severities, as rules: in .dws.yaml sets them (off drops them).
	severity := func(rule string) lint.Severity {
		sev := lint.Error
		if r, ok := s.reg.Lookup(rule); ok {
			sev = r.Severity
		}
		if cs, ok := s.cfg.Rules[rule]; ok {
			sev = cs
		}
		return sev
	}
	for i := range rep.Units {
		v := rep.Units[i].Verdict
		if v == nil || v.Rule == "" {
			continue
		}
		sev := severity(v.Rule)
		if sev == lint.Off {
			v.Rule, v.Message = "", ""
			continue
		}
		v.Severity = sev.String()
	}
	if err := report.WriteDiff(c.App.Writer, format, rep, report.Options{Version: version(), Registry: s.reg}, severity); err != nil {
		return failedTo("writing the report", err)
	}
	code := exitOK
	if len(rep.Problems) > 0 {
		code = exitFindings
	}
	for _, d := range rep.Units {
		if d.Verdict != nil && d.Verdict.Rule != "" && d.Verdict.Severity == lint.Error.String() || failOn != change.NoChange && d.Unacknowledged() >= failOn {
			code = exitFindings
		}
	}
	return exitCode(code)
}

// diskUnits reads the units of the files at paths (files or directories, walked as dws
// validate walks them); problems are files that could not be read or parsed. inRepo
// (--against) leaves out what git does not have in the repository's own tree: the
// files of a submodule (or of any repository nested in the work tree).
func diskUnits(l *lint.Linter, paths []string, inRepo bool, opts sim.Options, defs map[*change.Unit]sim.Definition) (units []*change.Unit, problems []change.Problem, err error) {
	inputs, diags, err := l.Expand(paths)
	var nf *lint.NoFilesError
	if err != nil && !errors.As(err, &nf) {
		return nil, nil, usageError{err}
	}
	for _, d := range diags {
		problems = append(problems, change.Problem{Path: d.File, Line: d.Line, Col: d.Column, Rule: d.Rule, Message: d.Message})
	}
	for _, in := range inputs {
		if notOwn(in.Path, paths, inRepo) {
			continue
		}
		data, err := source.ReadFile(in.Path)
		if err != nil {
			if len(paths) == 1 && paths[0] == in.Path {
				return nil, nil, usagef("diff: %v", err)
			}
			problems = append(problems, change.Problem{Path: in.Path, Rule: "read", Message: readProblem(err)})
			continue
		}
		us, p := unitsOf(l, in.Path, data, slices.Contains(paths, in.Path), opts, defs)
		units = append(units, us...)
		problems = append(problems, p...)
	}
	return units, problems, nil
}

// notOwn reports whether a directory walk of one of roots reached p through a symbolic
// link (p itself, or a directory between the root and p), or, with inRepo, through the
// top directory of another git repository (a submodule). Such a file is no definition
// of the tree being compared: git stores a link or a submodule's commit, not the file
// (so --against never has it on the old side), and a link's target is compared where
// it lies. A path named on the command line is taken as it is.
func notOwn(p string, roots []string, inRepo bool) bool {
	for _, root := range roots {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		at := root
		for _, seg := range strings.Split(rel, string(filepath.Separator)) {
			at = filepath.Join(at, seg)
			fi, err := os.Lstat(at)
			if err != nil {
				return false
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				return true
			}
			if inRepo && fi.IsDir() {
				if _, err := os.Lstat(filepath.Join(at, ".git")); err == nil {
					return true
				}
			}
		}
		return false
	}
	return false
}

// readProblem is a read error without the path it starts with.
func readProblem(err error) string {
	var re *source.ReadError
	if errors.As(err, &re) {
		return re.Problem
	}
	return err.Error()
}

// unitsOf parses one file and describes its units, each simulated for the path counts;
// each unit's simulated definition goes into defs (for its scenarios). A file that does
// not parse is a problem: its units cannot be told, and taking it for a file without
// any would report them removed (or added) and let the change through. A file no
// dialect knows is a problem when it was named (OLD, NEW); met on a walk, it is no
// definition.
func unitsOf(l *lint.Linter, path string, data []byte, named bool, opts sim.Options, defs map[*change.Unit]sim.Definition) ([]*change.Unit, []change.Problem) {
	in, units, problems := inspectUnits(l, path, data, named)
	if len(units) == 0 {
		return nil, problems
	}
	sims, err := in.Simulate(opts)
	for _, u := range units {
		u.Path = path
		if err != nil {
			u.PathsNote = "not simulated: " + err.Error()
			continue
		}
		for _, d := range sims {
			if d.Pointer == u.Pointer && d.Result != nil {
				u.Paths = d.Result
				defs[u] = d
			}
		}
	}
	return units, nil
}

// moved are units found outside the PATHs of dws diff --against.
type moved struct{ old, new []*change.Unit }

// outsidePaths finds, elsewhere in the repository, the other side of the units the
// PATHs hold on one side only. Pairing is by unit, not path: a definition moved into
// the PATHs is the same unit, and taking it for a new one would skip its version
// rules (moved out, it would be reported removed). Only then is the rest of the
// repository read: at REF from git's objects, in the work tree as --against walks it;
// only a file holding one of the units looked for is simulated, and nothing of it but
// that unit is compared. Nothing is looked for when the PATHs hold the whole
// repository.
func outsidePaths(l *lint.Linter, ref string, paths []string, read []gitFile, old, nw []*change.Unit, renames []change.Rename, opts sim.Options, defs map[*change.Unit]sim.Definition) (moved, error) {
	var out moved
	top, err := git(nil, "rev-parse", "--show-cdup")
	if err != nil {
		return out, usagef("diff --against: %v", err)
	}
	root := strings.TrimSpace(string(top))
	if root == "" {
		root = "."
	}
	root = filepath.Clean(root)
	if slices.Contains(paths, root) || slices.Contains(paths, root+string(filepath.Separator)) {
		return out, nil
	}
	unitTo := map[string]string{}
	for _, r := range renames {
		if r.Unit == "" {
			unitTo[r.From] = r.To
		}
	}
	paired := func(u *change.Unit) string {
		if to, ok := unitTo[u.ID()]; ok {
			return to
		}
		return u.ID()
	}
	oldIDs, newIDs := map[string]bool{}, map[string]bool{}
	for _, u := range old {
		oldIDs[paired(u)] = true
	}
	for _, u := range nw {
		newIDs[u.ID()] = true
	}
	wantOld, wantNew := map[string]bool{}, map[string]bool{}
	for id := range newIDs {
		if !oldIDs[id] {
			wantOld[id] = true
		}
	}
	for id := range oldIDs {
		if !newIDs[id] {
			wantNew[id] = true
		}
	}
	// take keeps the units of a file that are looked for, simulating it only then.
	take := func(path string, data []byte, want map[string]bool, key func(*change.Unit) string) []*change.Unit {
		var hit bool
		for _, u := range l.Inspect(path, data).Units() {
			hit = hit || want[key(u)]
		}
		if !hit {
			return nil
		}
		us, _ := unitsOf(l, path, data, false, opts, defs)
		var keep []*change.Unit
		for _, u := range us {
			if want[key(u)] {
				keep = append(keep, u)
				delete(want, key(u))
			}
		}
		return keep
	}
	if len(wantOld) > 0 {
		done := map[string]bool{}
		for _, f := range read {
			done[f.path] = true
		}
		files, err := gitFiles(l, ref, []string{root})
		if err != nil {
			return out, err
		}
		for _, f := range files {
			if !done[f.path] && len(wantOld) > 0 {
				out.old = append(out.old, take(f.path, f.data, wantOld, paired)...)
			}
		}
	}
	if len(wantNew) > 0 {
		inputs, _, err := l.Expand([]string{root})
		var nf *lint.NoFilesError
		if err != nil && !errors.As(err, &nf) {
			return out, usageError{err}
		}
		for _, in := range inputs {
			if len(wantNew) == 0 {
				break
			}
			if notOwn(in.Path, []string{root}, true) || under(in.Path, paths) {
				continue
			}
			data, err := source.ReadFile(in.Path)
			if err != nil {
				continue
			}
			out.new = append(out.new, take(in.Path, data, wantNew, (*change.Unit).ID)...)
		}
	}
	return out, nil
}

// under reports whether p lies in (or is) one of paths.
func under(p string, paths []string) bool {
	for _, root := range paths {
		rel, err := filepath.Rel(root, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// inspectUnits parses one file and describes its units, unsimulated, or says why it
// cannot: a file that does not parse (rule parse), one named that no dialect knows
// (rule dialect).
func inspectUnits(l *lint.Linter, path string, data []byte, named bool) (*lint.Inspection, []*change.Unit, []change.Problem) {
	in := l.Inspect(path, data)
	if in.Doc == nil {
		p := change.Problem{Path: path, Rule: "parse", Message: "the file does not parse"}
		var se *source.Error
		if _, err := source.Parse(path, data, source.FormatOf(path, data)); errors.As(err, &se) {
			p.Line, p.Col, p.Message = int(se.Pos.Line), int(se.Pos.Col), se.Msg
		}
		return in, nil, []change.Problem{p}
	}
	if in.Dialect == nil {
		if named {
			return in, nil, []change.Problem{{Path: path, Line: 1, Col: 1, Rule: "dialect", Message: "no dialect fits this file"}}
		}
		return in, nil, nil
	}
	return in, in.Units(), nil
}

// gitFile is one file of a git revision.
type gitFile struct {
	path string // as the work tree would show it, relative to the current directory
	data []byte
}

// gitFiles reads the files under paths at ref from git's objects, selected as a
// directory walk selects them. git runs as a subprocess: it reads the repository
// exactly as the user's git does (worktrees, alternates, packed refs, safe.directory),
// and dws needs no Go git library for three read-only plumbing commands.
func gitFiles(l *lint.Linter, ref string, paths []string) ([]gitFile, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, usagef("diff --against: git is not installed (no git on PATH); --against reads the old files with it")
	}
	if _, err := git(nil, "rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, usagef("diff --against: not inside a git work tree: %v", err)
	}
	if strings.HasPrefix(ref, "-") {
		return nil, usagef("diff --against: %q is not a revision", ref)
	}
	commit, err := git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		// A repository without a single commit (the first commit, under a pre-commit
		// hook) has no old files: every definition is new.
		if commits, aerr := git(nil, "rev-list", "-n", "1", "--all"); aerr == nil && len(commits) == 0 && ref == "HEAD" {
			return nil, nil
		}
		return nil, usagef("diff --against: %s", missingRef(ref))
	}
	oid := strings.TrimSpace(string(commit))
	listing, err := git(nil, append([]string{"ls-tree", "-r", "-z", oid, "--"}, paths...)...)
	if err != nil {
		return nil, usagef("diff --against: listing %s: %v", ref, err)
	}
	var names, oids []string
	for _, rec := range strings.Split(string(listing), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		// Regular files only: a symlink (120000) or a submodule (a commit) has no
		// definition of its own in this tree.
		if len(f) != 3 || f[1] != "blob" || f[0] == "120000" || hidden(name) || !l.Selects(name) {
			continue
		}
		names = append(names, name)
		oids = append(oids, f[2])
	}
	if len(oids) == 0 {
		return nil, nil
	}
	out, err := git(strings.NewReader(strings.Join(oids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, failedTo("reading "+ref+" from git", err)
	}
	files := make([]gitFile, 0, len(names))
	r := bufio.NewReader(bytes.NewReader(out))
	for _, name := range names {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, failedTo("reading "+ref+" from git", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, failedTo("reading "+ref+" from git", fmt.Errorf("unexpected header %q", header))
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, failedTo("reading "+ref+" from git", err)
		}
		data := make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, failedTo("reading "+ref+" from git", err)
		}
		files = append(files, gitFile{path: ref + ":" + filepath.ToSlash(name), data: data[:size]})
	}
	return files, nil
}

// hidden reports whether a path lies in or is a dot-file or dot-directory, which a
// directory walk skips.
func hidden(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
			return true
		}
	}
	return false
}

// missingRef says why ref names no commit: on a shallow clone, where its history
// stops.
func missingRef(ref string) string {
	msg := fmt.Sprintf("%s names no commit of this repository", ref)
	shallow, err := git(nil, "rev-parse", "--is-shallow-repository")
	if err != nil || strings.TrimSpace(string(shallow)) != "true" {
		return msg
	}
	msg += "; the repository is a shallow clone"
	if p, err := git(nil, "rev-parse", "--git-path", "shallow"); err == nil {
		if b, err := os.ReadFile(strings.TrimSpace(string(p))); err == nil {
			var cut []string
			for _, line := range strings.Fields(string(b)) {
				if len(line) > 12 {
					line = line[:12]
				}
				cut = append(cut, line)
			}
			msg += ", its history stops at " + strings.Join(cut, ", ")
		}
	}
	return msg + " (fetch more of it: git fetch --deepen=N, or --unshallow)"
}

// git runs git with args in the current directory and returns its standard output.
func git(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, errors.New(msg)
		}
		return out, err
	}
	return out, nil
}

// readAck reads an acknowledgement file (YAML or JSON): {acknowledged: [{fingerprint,
// reason}]}, every entry with a reason.
func readAck(path string) (map[string]string, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--ack: %w", err)
	}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, fmt.Errorf("--ack: %w", err)
	}
	bad := func(n *source.Node, msg string) error {
		return fmt.Errorf("%s:%d:%d: %s", path, n.Span.Start.Line, n.Span.Start.Col, msg)
	}
	root := doc.Root
	if root.Kind != source.Object || len(root.Members) != 1 || root.Members[0].Key != "acknowledged" {
		return nil, bad(root, "want {acknowledged: [{fingerprint, reason}, …]}")
	}
	list := root.Get("acknowledged")
	if list.Kind != source.Array {
		return nil, bad(list, "acknowledged: want a list of {fingerprint, reason}")
	}
	out := map[string]string{}
	for _, e := range list.Items {
		fp, ok1 := e.Get("fingerprint").Str()
		// An unquoted fingerprint of digits (or digits, e, digits) is a number to
		// YAML: it is taken as written.
		if n := e.Get("fingerprint"); n != nil && n.Kind == source.Number {
			fp, ok1 = string(data[n.Span.Start.Offset:n.Span.End.Offset]), true
		}
		why, ok2 := e.Get("reason").Str()
		if e.Kind != source.Object || len(e.Members) != 2 || !ok1 || !ok2 {
			return nil, bad(e, "an entry is {fingerprint, reason}, both strings")
		}
		if len(fp) != 16 || strings.Trim(fp, "0123456789abcdef") != "" {
			return nil, bad(e, fmt.Sprintf("%q is not a fingerprint (16 lower-case hex digits, as dws diff --format json prints them)", fp))
		}
		if strings.TrimSpace(why) == "" {
			return nil, bad(e, "an acknowledgement needs a reason")
		}
		if _, dup := out[fp]; dup {
			return nil, bad(e, fp+" is acknowledged twice")
		}
		out[fp] = strings.TrimSpace(why)
	}
	return out, nil
}
