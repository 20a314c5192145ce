package lint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/schema"
	"github.com/dwsdev/dws/source"
)

// Linter runs the validate pipeline (SPEC §3) over files.
type Linter struct {
	Registry *Registry
	Dialects []Dialect
	Config   *Config
	// Dialect, when set, is the dialect every file is validated as (--dialect).
	Dialect string
	// Jobs bounds how many files are checked at once; 0 means the number of CPUs.
	Jobs int
	// Baseline, when set, hides the findings it lists.
	Baseline *Baseline
	// Lock, when set, is the lockfile checksums are compared with (Config.Lock).
	Lock *canonical.Lock

	bundleMu    sync.Mutex
	bundleCache map[string]bundleListing
	homes       map[string]bundleHome
}

// New returns a linter for cfg with the baseline and lockfile the config names loaded.
// A baseline or lockfile that is configured but cannot be read is an error (exit 2).
func New(reg *Registry, dialects []Dialect, cfg *Config) (*Linter, error) {
	l := &Linter{Registry: reg, Dialects: dialects, Config: cfg}
	if cfg.Baseline != "" {
		b, err := LoadBaseline(cfg.Baseline)
		if err != nil {
			return nil, fmt.Errorf("%w (create it with dws validate --write-baseline %s)", err, relCwd(cfg.Baseline))
		}
		l.Baseline = b
	}
	if cfg.Lock != "" {
		lock, err := LoadLock(cfg.Lock)
		if err != nil {
			return nil, err
		}
		l.Lock = lock
	}
	return l, nil
}

// Input is one file to check. Data is set for standard input; otherwise the file
// at Path is read.
type Input struct {
	Path  string
	Data  []byte
	Stdin bool
	// Context marks a file a bundle reads only for its cross-file rules (a job spec's
	// skills, intents, outcomes): it is read and parsed, so a broken one is a finding,
	// but it is no definition and gets no dialect.
	Context bool
}

// FileResult is what the pipeline found in one file.
type FileResult struct {
	Path        string       `json:"path"`
	Dialect     string       `json:"dialect"`
	Checksum    string       `json:"checksum"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Doc is the parsed document, kept for printing source lines; nil when unparsed.
	Doc *source.Document `json:"-"`
	// Extra marks a file that was not checked but holds findings about the run itself
	// (the config or the baseline, for unused suppressions).
	Extra bool `json:"-"`
}

// Result is the outcome of one run, files sorted by path.
type Result struct {
	Files      []FileResult
	Suppressed int
	// Extra holds findings about files that are not inputs (the config, the baseline)
	// while suppressions are applied; Run moves them into Files.
	Extra []Diagnostic
}

// Diagnostics returns every diagnostic of the run, sorted.
func (r *Result) Diagnostics() []Diagnostic {
	var all []Diagnostic
	for _, f := range r.Files {
		all = append(all, f.Diagnostics...)
	}
	return Sort(all)
}

// Run checks every input and returns the sorted result. It never stops at the first
// problem: unreadable and malformed files are findings like any other.
// problems are findings from expanding the paths (Expand); each becomes a file's result.
func (l *Linter) Run(inputs []Input, problems ...Diagnostic) *Result {
	files := make([]*File, len(inputs))
	results := make([]FileResult, len(inputs))
	l.parallel(len(inputs), func(i int) {
		files[i], results[i] = l.file(inputs[i])
		// Only the cross-file stage needs a file after its own stages; keeping every
		// parsed document of a 10,000-file run alive costs most of a gigabyte.
		if _, _, inBundle := l.bundleOf(inputs[i].Path); inputs[i].Stdin || !inBundle {
			files[i] = nil
		}
	})
	l.crossFile(inputs, files, results)
	for _, p := range problems {
		results = append(results, FileResult{Path: p.File, Diagnostics: []Diagnostic{p}})
	}
	slices.SortStableFunc(results, func(a, b FileResult) int { return strings.Compare(a.Path, b.Path) })
	res := &Result{Files: results}
	for i := range res.Files {
		// Sorted before suppression, so which of several like findings a baseline hides
		// does not depend on the order the stages ran in.
		res.Files[i].Diagnostics = Sort(res.Files[i].Diagnostics)
	}
	l.suppress(res)
	// Findings about the config or the baseline join the file they are in.
	for _, d := range res.Extra {
		i := slices.IndexFunc(res.Files, func(f FileResult) bool { return f.Path == d.File })
		if i < 0 {
			res.Files = append(res.Files, FileResult{Path: d.File, Extra: true})
			i = len(res.Files) - 1
		}
		res.Files[i].Diagnostics = append(res.Files[i].Diagnostics, d)
	}
	res.Extra = nil
	slices.SortStableFunc(res.Files, func(a, b FileResult) int { return strings.Compare(a.Path, b.Path) })
	for i := range res.Files {
		res.Files[i].Diagnostics = Sort(res.Files[i].Diagnostics)
	}
	return res
}

// parallel calls fn(0)…fn(n-1) on at most l.Jobs goroutines.
func (l *Linter) parallel(n int, fn func(i int)) {
	jobs := l.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	jobs = min(jobs, max(n, 1))
	var wg sync.WaitGroup
	next := make(chan int)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (l *Linter) file(in Input) (f *File, res FileResult) {
	f = &File{Path: in.Path, Config: l.Config, reg: l.Registry, stdin: in.Stdin}
	res = FileResult{Path: in.Path}
	defer func() {
		// A panic in one rule must not take the other files down with it; it is still a
		// bug, reported as a finding so that the run fails.
		if r := recover(); r != nil {
			f.ReportAt("read", "", fileStart, fmt.Sprintf("internal error while checking this file: %v (please report it)", r))
			res.Diagnostics = f.diags
		}
	}()
	res.Checksum = l.check(f, in)
	res.Diagnostics = f.diags
	// The document is kept for the report's source lines and for inline suppressions;
	// a clean file without comments needs neither, and 10,000 kept trees cost ~1 GB.
	if len(f.diags) > 0 || (f.Doc != nil && len(f.Doc.Comments) > 0) {
		res.Doc = f.Doc
	}
	if f.Dialect != nil {
		res.Dialect = f.Dialect.ID()
	}
	return f, res
}

// check runs the stages on one file and returns its checksum ("" when it has none).
func (l *Linter) check(f *File, in Input) (sum string) {
	// Stage 1: read.
	data := in.Data
	if !in.Stdin {
		var ok bool
		if data, ok = l.read(f, in.Path); !ok {
			return ""
		}
	}
	if int64(len(data)) > l.Config.Limits.MaxBytes {
		f.ReportAt("size-limit", "", fileStart,
			fmt.Sprintf("the file is %d bytes, more than limits.max_bytes (%d)", len(data), l.Config.Limits.MaxBytes))
	}
	// Stage 2: parse.
	format := source.FormatOf(in.Path, data)
	doc, err := source.Parse(in.Path, data, format)
	if err != nil {
		// Keep the text, unparsed, so the report can still show the offending line.
		defer func() { f.Doc = &source.Document{Path: in.Path, Format: format, Text: data} }()
		var pe *source.Error
		if errors.As(err, &pe) {
			f.ReportAt("parse", "", source.Span{Start: pe.Pos, End: pe.Pos}, pe.Msg)
		} else {
			f.ReportAt("parse", "", fileStart, err.Error())
		}
		return ""
	}
	f.Doc = doc
	value := doc.Root.Value()
	// The document's own properties: no dialect needed.
	numberPrecision(f, doc.Root, "")
	if in.Context {
		return ""
	}
	// Stage 9 needs nothing the other stages produce: its canonicalisation runs beside
	// them (a large definition spends a tenth of its time there), its findings after.
	type checksumResult struct {
		sum string
		err error
	}
	sumc := make(chan checksumResult, 1)
	go func() {
		sum, err := canonical.Checksum(value)
		sumc <- checksumResult{sum, err}
	}()
	defer func() {
		r := <-sumc
		sum = l.checksum(f, r.sum, r.err)
	}()
	// Stage 3: dialect.
	d := l.dialectFor(f)
	if d == nil {
		return sum
	}
	f.Dialect = d
	// Stage 4: schema.
	failures, err := schema.Validate(d.ID(), value)
	if err != nil {
		f.ReportAt("schema", "", fileStart, err.Error())
	}
	for _, fl := range failures {
		if fl.Key {
			f.ReportKey("schema", fl.Pointer, fl.Message)
		} else {
			f.Report("schema", fl.Pointer, fl.Message)
		}
	}
	// Stage 5: graph.
	for _, gc := range d.Graphs(f) {
		opts := gc.Options
		if opts.MaxNodes == 0 {
			opts.MaxNodes = l.Config.Limits.MaxSteps
		}
		for _, fd := range graph.Check(gc.Graph, opts) {
			rel := make([]Related, 0, len(fd.Related))
			for _, r := range fd.Related {
				rel = append(rel, f.Related(r.Pointer, r.Message))
			}
			f.Report(fd.Rule, fd.Pointer, fd.Message, rel...)
		}
	}
	// Stages 6 and 7: the dialect's rules, SQL included.
	d.Lint(f)
	return sum // set by the deferred checksum stage
}

// read reads a file with the hard ceiling of SPEC §3 stage 1.
func (l *Linter) read(f *File, path string) ([]byte, bool) {
	st, err := os.Stat(path)
	if err != nil {
		f.ReportAt("read", "", fileStart, readError(err))
		return nil, false
	}
	if !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.IsDir() {
			what = "a directory"
		}
		f.ReportAt("read", "", fileStart, "cannot read: "+what)
		return nil, false
	}
	if st.Size() > readCeiling {
		f.ReportAt("size-limit", "", fileStart,
			fmt.Sprintf("the file is %d bytes, above the 4 MiB ceiling: not parsed", st.Size()))
		return nil, false
	}
	fh, err := os.Open(path)
	if err != nil {
		f.ReportAt("read", "", fileStart, readError(err))
		return nil, false
	}
	defer fh.Close() //nolint:errcheck // read-only: a close error loses nothing
	// The file may grow between Stat and Read; the ceiling holds either way.
	data, err := io.ReadAll(io.LimitReader(fh, readCeiling+1))
	if err != nil {
		f.ReportAt("read", "", fileStart, readError(err))
		return nil, false
	}
	if len(data) > readCeiling {
		f.ReportAt("size-limit", "", fileStart, "the file grew above the 4 MiB ceiling while being read: not parsed")
		return nil, false
	}
	return data, true
}

func readError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "cannot read: no such file"
	case errors.Is(err, fs.ErrPermission):
		return "cannot read: permission denied"
	}
	return "cannot read: " + err.Error()
}

// dialectFor picks the file's dialect by SPEC §2's precedence, reporting `dialect` when
// none fits.
func (l *Linter) dialectFor(f *File) Dialect {
	want, why := l.Dialect, "--dialect"
	if want == "" {
		rel := l.Config.Rel(f.Path)
		for _, g := range l.Config.Dialects {
			if ok, _ := doublestar.Match(g.Glob, rel); ok {
				want, why = g.Dialect, fmt.Sprintf("the dialects glob %q", g.Glob)
				break
			}
		}
	}
	if want == "" {
		if s, ok := f.Doc.Root.Get("$schema").Str(); ok {
			if id, ok := schema.DialectForURL(s); ok {
				want, why = id, "its $schema"
			}
		}
	}
	if want != "" {
		for _, d := range l.Dialects {
			if d.ID() == want {
				if !d.Detect(f.Doc) {
					f.ReportAt("dialect", "", fileStart,
						fmt.Sprintf("%s asks for dialect %s, but the file does not look like one", why, want))
					return nil
				}
				return d
			}
		}
		f.ReportAt("dialect", "", fileStart, fmt.Sprintf("%s asks for dialect %q, which this dws does not know", why, want))
		return nil
	}
	for _, d := range l.Dialects {
		if d.Detect(f.Doc) {
			return d
		}
	}
	ids := make([]string, len(l.Dialects))
	for i, d := range l.Dialects {
		ids[i] = d.ID()
	}
	f.ReportAt("dialect", "", fileStart, fmt.Sprintf(
		"no dialect fits this file (known: %s); name one with --dialect or a dialects: glob in .dws.yaml",
		strings.Join(ids, ", ")))
	return nil
}
