package lint

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Bundle is a dialect whose definitions span several files that are checked together,
// such as a DWS job spec: a directory of workers, contracts, teams, tasks and workflows.
type Bundle interface {
	// BundleRoot returns the root directory of the bundle that path (a file or a
	// directory) lies in or is.
	BundleRoot(path string) (root string, ok bool)
	// BundleFiles lists the files of the bundle at root: check files are validated like
	// any other file; context files are only read for the cross-file rules.
	BundleFiles(root string) (check, context []string, err error)
	// CheckBundle runs the cross-file rules over the parsed files of one bundle (context
	// files have no Dialect). Findings on files outside this run are dropped.
	CheckBundle(root string, files []*File)
}

// bundles returns the dialects that are bundles.
func (l *Linter) bundles() []Bundle {
	var bs []Bundle
	for _, d := range l.Dialects {
		if b, ok := d.(Bundle); ok {
			bs = append(bs, b)
		}
	}
	return bs
}

// bundleOf returns the bundle and root a file belongs to.
func (l *Linter) bundleOf(file string) (Bundle, string, bool) {
	return l.bundleOfDir(filepath.Dir(absOrSelf(file)))
}

type bundleHome struct {
	b    Bundle
	root string
}

// bundleOfDir returns the bundle and root a directory is or lies in. Finding a root
// looks at every parent directory, so the answer is kept per directory: 10,000 files
// in one folder ask once.
func (l *Linter) bundleOfDir(dir string) (Bundle, string, bool) {
	dir = absOrSelf(dir)
	l.bundleMu.Lock()
	h, ok := l.homes[dir]
	l.bundleMu.Unlock()
	if !ok {
		for _, b := range l.bundles() {
			if root, found := b.BundleRoot(dir); found {
				h = bundleHome{b, root}
				break
			}
		}
		l.bundleMu.Lock()
		if l.homes == nil {
			l.homes = map[string]bundleHome{}
		}
		l.homes[dir] = h
		l.bundleMu.Unlock()
	}
	return h.b, h.root, h.b != nil
}

// isContext reports whether path is a context file of the bundle it lies in: such files
// are read for the cross-file rules but are not definitions of any dialect.
func (l *Linter) isContext(path string) bool {
	b, root, ok := l.bundleOf(path)
	if !ok {
		return false
	}
	_, ctx, err := l.bundleFiles(b, root)
	if err != nil {
		return false
	}
	abs := absOrSelf(path)
	return slices.ContainsFunc(ctx, func(c string) bool { return absOrSelf(c) == abs })
}

// crossFile is stage 8: for every bundle an input lies in, it loads the bundle's other
// files (checked like any file, but their own findings are not part of this run) and
// runs the bundle's cross-file rules. Findings land on the inputs they are about.
func (l *Linter) crossFile(inputs []Input, files []*File, results []FileResult) {
	type unit struct {
		b     Bundle
		root  string
		given map[string]int // absolute path -> index into inputs
	}
	var units []*unit
	byRoot := map[string]*unit{}
	for i, in := range inputs {
		if in.Stdin {
			continue
		}
		b, root, ok := l.bundleOf(in.Path)
		if !ok {
			continue
		}
		u := byRoot[root]
		if u == nil {
			u = &unit{b: b, root: root, given: map[string]int{}}
			byRoot[root] = u
			units = append(units, u)
		}
		u.given[absOrSelf(in.Path)] = i
	}
	for _, u := range units {
		check, ctx, err := l.bundleFiles(u.b, u.root)
		if err != nil {
			for _, i := range u.given {
				files[i].ReportAt("read", "", fileStart, fmt.Sprintf("cannot read the job spec at %s: %v", u.root, err))
				results[i].Diagnostics = files[i].diags
			}
			continue
		}
		var members []*File
		seen := map[string]bool{}
		for _, p := range append(slices.Clone(check), ctx...) {
			abs := absOrSelf(p)
			if seen[abs] {
				continue
			}
			seen[abs] = true
			if i, ok := u.given[abs]; ok {
				members = append(members, files[i])
				continue
			}
			f, _ := l.file(Input{Path: display(relCwd(p))})
			if slices.Contains(ctx, p) {
				f.Dialect = nil
			}
			if f.Doc != nil && f.Doc.Root != nil {
				members = append(members, f)
			}
		}
		// Context files given on the command line were checked as definitions; they
		// are not, so they take part only as context.
		before := map[int]int{}
		for _, i := range u.given {
			before[i] = len(files[i].diags)
		}
		u.b.CheckBundle(u.root, members)
		for _, i := range u.given {
			if len(files[i].diags) != before[i] {
				results[i].Diagnostics = files[i].diags
				// A file that was clean until now had its document dropped (see
				// Linter.file); the report needs it for the source lines.
				results[i].Doc = files[i].Doc
			}
		}
	}
}

// markContext marks inputs that are bundle context files (skills, intents, outcomes of a
// job spec): they are read and parsed like any file, but they are not definitions.
func (l *Linter) markContext(inputs []Input) []Input {
	if len(l.bundles()) == 0 {
		return inputs
	}
	for i := range inputs {
		inputs[i].Context = !inputs[i].Stdin && l.isContext(inputs[i].Path)
	}
	return inputs
}

type bundleListing struct {
	check, context []string
	err            error
}

// bundleFiles lists a bundle's files once per run: every input inside a job spec asks,
// and walking the job spec for each of them would make a run quadratic in its size.
func (l *Linter) bundleFiles(b Bundle, root string) (check, context []string, err error) {
	l.bundleMu.Lock()
	defer l.bundleMu.Unlock()
	if l.bundleCache == nil {
		l.bundleCache = map[string]bundleListing{}
	}
	lst, ok := l.bundleCache[root]
	if !ok {
		lst.check, lst.context, lst.err = b.BundleFiles(root)
		l.bundleCache[root] = lst
	}
	return lst.check, lst.context, lst.err
}
