package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/cache"
	"github.com/dwsdev/dws/source"
)

// Expand turns command-line paths into inputs: files are taken as they are, directories
// are walked and filtered through the config's include and exclude globs. Paths that
// cannot be walked become `read` findings, so a bad path never hides the others.
//
// The walk follows symbolic links to directories but never into one of their own
// ancestors (a symlink loop is a `read` finding), and skips directories whose name
// starts with a dot, node_modules, and dws's own files (.dws.yaml, the lockfile, the baseline).
//
// A directory that yields no file at all is an error (*NoFilesError): a gate that checks
// nothing must not pass. Include and exclude globs apply to paths inside the config's
// directory; outside it, every *.json, *.yaml and *.yml file is taken.
func (l *Linter) Expand(paths []string) (inputs []Input, problems []Diagnostic, err error) {
	r := l.newRun()
	// A walk never gives one path twice: the set of paths taken is only needed once a
	// second source may repeat them (another argument, a bundle's files), and is made
	// then. A map of 10,000 paths was a tenth of a warm run's fresh memory.
	var seen map[string]bool
	dedupe := func() {
		if seen == nil {
			seen = make(map[string]bool, len(inputs))
			for _, in := range inputs {
				seen[in.abs] = true
			}
		}
	}
	var empty []string
	outside := false
	found := 0
	add := func(p, abs string, regular bool, hint cache.Hint) {
		found++
		key := abs
		if key == "" {
			key = absOrSelf(p)
		}
		if filepath.IsAbs(p) {
			p = relCwd(p)
		}
		if seen != nil {
			if seen[key] {
				return
			}
			seen[key] = true
		}
		// A walk's paths are clean already (walk), and slash-separated here.
		if abs == "" || filepath.Separator != '/' {
			p = display(p)
		}
		inputs = append(inputs, Input{Path: p, regular: regular, abs: key, hint: hint})
	}
	// A directory's listing says how many inputs may follow: room is made once.
	grow := func(n int) { inputs = slices.Grow(inputs, n) }
	for i, p := range paths {
		if i > 0 {
			dedupe()
		}
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			add(p, "", false, 0) // the read stage reports what is wrong with it
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			add(p, "", false, 0)
			continue
		}
		before := found
		problems = append(problems, l.walk(p, []string{absOrSelf(real)}, add, grow)...)
		// A directory inside a bundle (a job spec) brings the whole bundle's definitions.
		if h := r.homeOf(p); h.b != nil {
			if check, _, err := r.files(h); err == nil {
				dedupe()
				for _, c := range check {
					add(c, "", false, 0)
				}
			}
		}
		if found == before {
			empty = append(empty, display(p))
			if rel := l.Config.Rel(p); rel == ".." || strings.HasPrefix(rel, "../") {
				outside = true
			}
		}
	}
	if len(empty) > 0 {
		err = &NoFilesError{Dirs: empty, Include: l.Config.Include, Exclude: l.Config.Exclude}
		if outside {
			err = &NoFilesError{Dirs: empty, Include: defaultInclude}
		}
	}
	return inputs, problems, err
}

// NoFilesError is a directory given to dws in which nothing is checked.
type NoFilesError struct {
	Dirs             []string
	Include, Exclude []string
}

func (e *NoFilesError) Error() string {
	msg := fmt.Sprintf("no files to check in %s (include: %s", strings.Join(e.Dirs, ", "), strings.Join(e.Include, ", "))
	if len(e.Exclude) > 0 {
		msg += "; exclude: " + strings.Join(e.Exclude, ", ")
	}
	return msg + ")"
}

func (l *Linter) walk(dir string, ancestors []string, add func(p, abs string, regular bool, hint cache.Hint), grow func(n int)) []Diagnostic {
	var problems []Diagnostic
	absDir := absOrSelf(dir)
	entries, err := l.list(dir, absDir)
	if err != nil {
		return []Diagnostic{l.readProblem(dir, readProblem(dir, err))}
	}
	// A listing is sorted by name, the order inputs are taken in.
	grow(len(entries))
	sel := l.selector()
	// Each entry's absolute path is the directory's and its name: made once per
	// directory, not once per file and question (four each, every one a Clean). When
	// the directory's paths are clean, an entry's are too: a name holds no separator
	// and is never "." or "..", so joining them needs no Clean either.
	join := func(d, name string) string { return filepath.Join(d, name) }
	// tail, when set, is the length of an entry's path given its name: the path is then
	// the tail of the absolute one (the directory's is the tail of its absolute path, as
	// in a walk of a relative directory), one string a file instead of two.
	var tail func(name string) int
	if filepath.Clean(dir) == dir && filepath.Clean(absDir) == absDir {
		switch sep := string(filepath.Separator); {
		case dir == ".":
			tail = func(name string) int { return len(name) }
		case strings.HasSuffix(dir, sep): // the root, as join writes it
			tail = func(name string) int { return len(dir) + len(name) }
		case dir == absDir || strings.HasSuffix(absDir, sep+dir):
			tail = func(name string) int { return len(dir) + 1 + len(name) }
		}
		join = func(d, name string) string {
			if d == "." {
				return name
			}
			if strings.HasSuffix(d, string(filepath.Separator)) {
				return d + name // the root
			}
			return d + string(filepath.Separator) + name
		}
	}
	for _, e := range entries {
		name := e.Name
		abs := join(absDir, name)
		var p string
		if tail != nil {
			p = abs[len(abs)-tail(name):]
		} else {
			p = join(dir, name)
		}
		isDir, regular := e.Type.IsDir(), e.Type.IsRegular()
		if e.Type&os.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				if sel.included(p, abs) {
					add(p, abs, false, 0) // a broken link to a file we would check: the read stage says so
				}
				continue
			}
			isDir, regular = st.IsDir(), st.Mode().IsRegular()
		}
		if isDir {
			if strings.HasPrefix(name, ".") || name == "node_modules" {
				continue
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				problems = append(problems, l.readProblem(p, readProblem(p, err)))
				continue
			}
			real = absOrSelf(real)
			if slices.Contains(ancestors, real) {
				problems = append(problems, l.readProblem(p,
					fmt.Sprintf("directory symlink loop: %s leads back to %s; not followed", display(p), real)))
				continue
			}
			problems = append(problems, l.walk(p, append(slices.Clip(ancestors), real), add, grow)...)
			continue
		}
		if !sel.selects(p, abs) {
			continue
		}
		add(p, abs, regular, e.Hint)
	}
	return problems
}

// beforeRead, set by tests, runs between a directory's or a file's stat and its
// read (list, run.cached).
var beforeRead func(path string)

// list returns the entries of the directory at dir (whose absolute path is abs)
// sorted by name: the cache's listing when the directory's stamp is the one kept
// with it, and otherwise what the directory holds, kept for the next run.
func (l *Linter) list(dir, abs string) ([]cache.Dirent, error) {
	var st cache.Stamp
	stamped := false
	if l.Cache != nil {
		// The stamp is taken before the directory is read: a change made while it is
		// read moves the times past the ones kept with the listing.
		if st, stamped = cache.DirStampOf(dir); stamped {
			if ents, ok := l.Cache.Listing(abs, st); ok {
				return ents, nil
			}
		}
	}
	if beforeRead != nil {
		beforeRead(dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // read-only: a close error loses nothing
	if stamped {
		// The listing is kept under the stamp of the directory it is read from, taken
		// from the open directory before its read: one mounted over dir's path (or
		// unmounted from it) since the stat above must not lend its names to the
		// stamp of another.
		st, stamped = cache.DirStampOfFile(f)
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(des, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	ents := make([]cache.Dirent, len(des))
	for i, d := range des {
		ents[i] = cache.Dirent{Name: d.Name(), Type: d.Type()}
	}
	if stamped {
		l.Cache.PutListing(abs, st, ents)
	}
	return ents, nil
}

// Selects reports whether a directory walk takes the file at p: a file the include
// globs take and the exclude globs do not, that is no hidden file (.pre-commit-config.yaml,
// .golangci.yml: tools' settings, never definitions) and no file dws itself reads or
// writes (.dws.yaml, the lockfile, the baseline), nor a scenario unless l.Scenarios.
// validate --only-included applies it to the files it is given, for hooks that pass
// every changed file.
func (l *Linter) Selects(p string) bool { return l.selector().selects(p, absOrSelf(p)) }

// selector is what a walk asks of every file it meets: l's globs, made ready once.
type selector struct {
	l                *Linter
	include, exclude []glob
}

func (l *Linter) selector() selector {
	return selector{l: l, include: compileGlobs(l.Config.Include), exclude: compileGlobs(l.Config.Exclude)}
}

// selects is Selects of the file at p, whose absolute path is abs.
func (s selector) selects(p, abs string) bool {
	name := p[strings.LastIndexByte(p, filepath.Separator)+1:]
	return name != "" && name != ConfigName && name[0] != '.' && abs != s.l.Config.Lock &&
		abs != s.l.Config.Baseline && (s.l.Scenarios || !IsScenario(name)) && s.included(p, abs)
}

// included says whether the file at p, whose absolute path is abs, is one the
// globs take.
func (s selector) included(p, abs string) bool {
	rel := s.l.Config.relAbs(abs)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		// The config's globs describe its own tree; elsewhere take what dws reads.
		return matchAny(defaultInclude, filepath.Base(p))
	}
	return matchAnyGlob(s.include, rel) && !matchAnyGlob(s.exclude, rel)
}

var defaultInclude = []string{"*.json", "*.yaml", "*.yml"}

// IsScenario reports whether path names a scenario file (NAME.scenario.yaml or .yml):
// a test of a definition that dws test runs, never a definition itself.
func IsScenario(path string) bool {
	base := filepath.Base(path)
	for _, s := range []string{".scenario.yaml", ".scenario.yml"} {
		if strings.HasSuffix(base, s) && len(base) > len(s) {
			return true
		}
	}
	return false
}

func (l *Linter) readProblem(path, msg string) Diagnostic {
	f := &File{Path: display(path), Config: l.Config, reg: l.Registry}
	f.ReportAt("read", "", fileStart, msg)
	return f.diags[0]
}

// readProblem is how a walk describes a path it cannot read, as the read stage does.
func readProblem(path string, err error) string {
	var re *source.ReadError
	if errors.As(source.ReadErrorOf(path, err), &re) {
		return re.Problem
	}
	return "cannot read: " + err.Error()
}

// display is the form a path is shown in: cleaned, slash-separated.
func display(p string) string { return filepath.ToSlash(filepath.Clean(p)) }

func absOrSelf(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	wd, err := workdir()
	if err != nil {
		return p
	}
	return filepath.Join(wd, p)
}

// wd caches the working directory: filepath.Abs asks the kernel for it (two stats) on
// every call, fifteen times a file in a run. dws never changes directory; a test that
// does (t.Chdir) also sets $PWD, which keys the cache.
var wd struct {
	sync.Mutex
	pwd, dir string
	err      error
	ok       bool
}

func workdir() (string, error) {
	pwd := os.Getenv("PWD")
	wd.Lock()
	defer wd.Unlock()
	if !wd.ok || wd.pwd != pwd {
		wd.dir, wd.err = os.Getwd()
		wd.pwd, wd.ok = pwd, true
	}
	return wd.dir, wd.err
}
