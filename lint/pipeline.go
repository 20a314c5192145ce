package lint

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dwsdev/dws/cache"
	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/schema"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Linter runs the validate pipeline (SPEC §3) over files. It holds what a run is
// configured with; what a run learns (bundle membership, listings) lives only as long
// as that run, so a long-lived process such as the language server never sees a stale
// answer.
type Linter struct {
	Registry *Registry
	Config   *Config
	// Dialect, when set, is the dialect every file is validated as (--dialect).
	Dialect string
	// Jobs bounds how many goroutines a run uses, for files, statements and checksums
	// alike; 0 means the number of CPUs.
	Jobs int
	// Baseline, when set, hides the findings it lists.
	Baseline *Baseline
	// Lock, when set, is the lockfile checksums are compared with (Config.Lock).
	Lock *canonical.Lock
	// Simulation, when set, also simulates each file that validates (dws simulate).
	Simulation *SimulationOptions
	// Overlay, when set, holds the contents of files by absolute path that win over
	// what is on disk: an editor's unsaved buffers (dws lsp), for the files a run is
	// given and the files of a bundle it reads for the cross-file rules alike.
	Overlay map[string][]byte
	// Cache, when set, remembers the files a run found clean (see package cache); a
	// file given again with the same bytes under the same CacheScope is not checked.
	// Files read from standard input or an overlay, files of a bundle and simulated
	// runs are always checked. With a lockfile, a file's checksum is computed from its
	// bytes and compared on every run all the same.
	Cache *cache.Cache
	// Scenarios makes directory walks (Expand, Selects) take scenario files, whose
	// shape the run checks (dws validate). Without it a walk leaves them out, as dws
	// simulate and dws checksum want: a scenario is a test, not a definition.
	Scenarios bool
	// Ready, when set, is called once, before the first file the cache does not answer
	// is checked: dws validate loads the config's sections there (LoadSections), which
	// a run the cache answers throughout never needs. When it returns false, no file
	// is checked and Run returns an empty result; the caller reports why.
	Ready func() bool
}

// CacheScope identifies everything besides a file's bytes that decides what a run
// finds in it: build (the dws binary, as the caller identifies it), the forced
// dialect, the config's directory and the bytes of the config and every file it names.
func (l *Linter) CacheScope(build string) cache.Key {
	parts := [][]byte{[]byte(build), []byte(l.Dialect), []byte(l.Config.Dir)}
	for _, f := range l.Config.Files() {
		data, err := source.ReadFile(f)
		if err != nil {
			data = []byte(err.Error())
		}
		parts = append(parts, []byte(absOrSelf(f)), data)
	}
	return cache.KeyOf(parts...)
}

// New returns a linter for cfg with the baseline and lockfile the config names loaded.
// A baseline or lockfile that is configured but cannot be read is an error (exit 2).
func New(reg *Registry, cfg *Config) (*Linter, error) {
	l := &Linter{Registry: reg, Config: cfg}
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
	// regular marks a file a directory listing named as a regular file: it is read
	// without a stat first (source.ReadRegularString).
	regular bool
	// hint leads to the file's stamp in the cache, when a kept listing named it.
	hint cache.Hint
	// abs is the absolute path, once known (absPath).
	abs string
	// text is the file's bytes when read already by the cache lookup (read is then set).
	text string
	// read is set when text holds the file's bytes, read already by the cache lookup:
	// what the cache knows them by. Only a file the cache did not answer for has one,
	// so a warm run's inputs stay small.
	read *readBytes
}

// readBytes is what a cache lookup that read a file learnt: the cache key of its
// bytes and its metadata as it was before they were read (cache.Stamp).
type readBytes struct {
	key   cache.Key
	stamp cache.Stamp
}

// dirOf is filepath.Dir of the clean path p (an absPath), without its Clean.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); filepath.Separator == '/' && i >= 0 {
		return p[:max(i, 1)]
	}
	return filepath.Dir(p)
}

// absPath returns in's absolute path, working it out once.
func (in *Input) absPath() string {
	if in.abs == "" {
		in.abs = absOrSelf(in.Path)
	}
	return in.abs
}

// readInput reads in's file into the string its parsed document will keep, with
// what the file was once open.
func readInput(in *Input) (string, source.Opened, error) {
	if in.regular {
		return source.ReadRegularString(in.Path)
	}
	return source.ReadFileString(in.Path)
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
	// inline are the file's dws:ignore comments, read while its document was whole.
	inline []inlineIgnore
	// own marks a file dws itself wrote (a baseline): it is not checked or counted.
	own bool
	// Simulation is set when the run simulated the file (Linter.Simulation).
	Simulation *Simulation `json:"-"`
}

// Simulation is what simulating one file gave: its definitions, or why it was not
// simulated.
type Simulation struct {
	Definitions []sim.Definition
	// Skipped says why the file was not simulated ("" when it was).
	Skipped string
	// Err is a failure of the simulator itself (a definition too large to explore).
	Err error
	// NoRuns is the file's dialect when that dialect has no runs to simulate (a job
	// spec's contracts, teams, tasks and workers: its manifest is what runs).
	NoRuns string
}

// SimulationOptions turn on simulation in Run: every file that validates without an
// error is explored as well (dws simulate).
type SimulationOptions struct {
	sim.Options
	MaxPaths int
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
// Run works on inputs in place (it notes what it learns about each, and lets go of
// the bytes it read): a caller passes a slice it does not read afterwards. A copy of
// 10,000 inputs was a tenth of a warm run's fresh memory.
// problems are findings from expanding the paths (Expand); each becomes a file's result.
// A panic while checking a file is a bug in dws: Run re-raises it as a *PanicError
// naming the file, once every goroutine of the run has stopped.
func (l *Linter) Run(inputs []Input, problems ...Diagnostic) *Result {
	r := l.newRun()
	// Which bundle each input belongs to is decided once, here, for the whole run;
	// homes and files are made once an input lies in one (most runs have none).
	var homes []bundleHome
	var files []*File
	// Inputs come directory by directory: each directory is asked about once in a row.
	var lastDir string
	var lastHome bundleHome
	for i, in := range inputs {
		if in.Stdin {
			continue
		}
		if dir := dirOf(inputs[i].absPath()); dir != lastDir || i == 0 {
			lastDir, lastHome = dir, r.homeOf(dir)
		}
		if lastHome.b == nil {
			continue
		}
		if homes == nil {
			homes, files = make([]bundleHome, len(inputs)), make([]*File, len(inputs))
		}
		homes[i] = lastHome
		if !in.Context && homes[i].b != nil {
			inputs[i].Context = r.isContext(homes[i], in.Path)
		}
	}
	results := make([]FileResult, len(inputs))
	var readyOnce sync.Once
	notReady := false
	ready := func() bool {
		readyOnce.Do(func() { notReady = l.Ready != nil && !l.Ready() })
		return !notReady
	}
	r.lim.Each(len(inputs), 1, func(i int) {
		// Only the cross-file stage needs a file after its own stages; keeping every
		// parsed document of a 10,000-file run alive costs most of a gigabyte.
		keep := homes != nil && homes[i].b != nil
		if !keep && r.cached(&inputs[i], &results[i]) {
			return
		}
		if !ready() {
			return
		}
		f, res := r.file(inputs[i], keep)
		results[i] = res
		if keep {
			files[i] = f
		}
		r.remember(inputs[i], results[i])
		if inputs[i].read != nil {
			inputs[i].text, inputs[i].read = "", nil // held by the stages until here, and no longer
		}
	})
	if notReady {
		return &Result{}
	}
	r.crossFile(inputs, homes, files, results)
	results = slices.DeleteFunc(results, func(fr FileResult) bool { return fr.own })
	for _, p := range problems {
		results = append(results, FileResult{Path: p.File, Diagnostics: []Diagnostic{p}})
	}
	byPath := func(a, b FileResult) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(results, byPath) { // a directory's walk gives them in order
		slices.SortStableFunc(results, byPath)
	}
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

// run is the state of one Run: the limiter every goroutine of the run draws from, and
// what the run has learnt about bundles.
type run struct {
	*Linter
	lim *Limiter
	// heavy lets one large file at a time through the stages that cost memory in
	// proportion to its size, so that a run's peak is one large file's, whatever --jobs.
	heavy sync.Mutex

	mu       sync.Mutex
	homes    map[string]bundleHome    // directory -> the bundle it lies in
	listings map[string]bundleListing // bundle root -> its files
}

func (l *Linter) newRun() *run {
	jobs := l.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	return &run{Linter: l, lim: NewLimiter(jobs), homes: map[string]bundleHome{}, listings: map[string]bundleListing{}}
}

// cached reports whether the cache holds in's result, which it then sets. On a miss it
// leaves the bytes it read in in, for the stages.
func (r *run) cached(in *Input, res *FileResult) bool {
	if r.Cache == nil || r.Simulation != nil || in.Stdin || in.Context {
		return false
	}
	abs := in.absPath()
	if _, ok := r.Overlay[abs]; ok {
		return false
	}
	// A file whose stamp is the one kept with its clean result is not read at all,
	// unless a lockfile is configured: a cached verdict never stands in for the
	// lockfile's check, which is made from today's bytes (lockAgrees).
	var stamp cache.Stamp
	if st, ok := cache.StampOf(in.Path); ok {
		if r.Lock == nil {
			if e, ok := r.Cache.StampedHint(abs, in.hint, st); ok {
				*res = FileResult{Path: in.Path, Dialect: e.Dialect, Checksum: e.Checksum}
				return true
			}
		}
		stamp, in.regular = st, true
	}
	if beforeRead != nil {
		beforeRead(in.Path)
	}
	data, opened, err := readInput(in)
	if err != nil {
		return false // the read stage reports it
	}
	// The stamp is kept for these bytes only when they are the file the stamp was
	// taken of: one mounted over the path, renamed to it or written between the stat
	// and the open must not lend its bytes' verdict to the other's stamp.
	if stamp != cache.Stamp(opened) {
		stamp = cache.Stamp{}
	}
	in.text, in.read = data, &readBytes{key: cache.KeyOfStrings(abs, data), stamp: stamp}
	e, ok := r.Cache.Get(in.read.key)
	if !ok || (r.Lock != nil && !r.lockAgrees(in, e)) {
		return false
	}
	*res = FileResult{Path: in.Path, Dialect: e.Dialect, Checksum: e.Checksum}
	// The bytes are known, the stamp was not (a checkout or a touch rewrote the file
	// as it was): keep the new one, so the next run need not read it.
	r.Cache.PutStamp(abs, stamp, in.read.key)
	return true
}

// lockAgrees says whether the checksum of in's bytes, computed now, is the one its
// cache entry e holds and the one the lockfile records. When it is not, the cache
// lied (a clean entry is only kept under the lockfile it matched: the lockfile's
// bytes are in the scope) and the file is checked in full.
func (r *run) lockAgrees(in *Input, e cache.Entry) bool {
	if len(in.text) > heavyFile {
		r.heavy.Lock()
		defer r.heavy.Unlock()
	}
	doc, err := source.ParseString(in.Path, in.text, source.FormatOf(in.Path, in.text))
	if err != nil {
		return false
	}
	sum, err := canonical.ChecksumNode(doc.Root)
	if err != nil || sum != e.Checksum {
		return false
	}
	key, err := canonical.RelPath(r.Config.Lock, in.Path)
	if err != nil {
		return true // outside the lockfile's tree: the checksum stage compares nothing either
	}
	return r.Lock.Files[key] == sum
}

// remember records a clean result in the cache: no finding and no inline ignore (a
// file with either is checked on every run, so its report is always today's).
func (r *run) remember(in Input, res FileResult) {
	if in.read == nil || res.own || res.Checksum == "" || len(res.Diagnostics) > 0 || len(res.inline) > 0 {
		return
	}
	r.Cache.Put(in.read.key, cache.Entry{Dialect: res.Dialect, Checksum: res.Checksum})
	r.Cache.PutStamp(in.absPath(), in.read.stamp, in.read.key)
}

// file runs the stages on one input. keep says whether the caller needs the parsed
// file afterwards (for the cross-file stage); without it, a large file's tree is let go
// and collected before the next large file may start.
func (r *run) file(in Input, keep bool) (f *File, res FileResult) {
	f = &File{Path: in.Path, Config: r.Config, Limiter: r.lim, reg: r.Registry, stdin: in.Stdin}
	res = FileResult{Path: in.Path}
	defer func() {
		if f.heavy {
			f.heavy = false
			if !keep {
				// Its tree is garbage now: collected before the next large file may
				// start, so a run's peak is one large file's, however many it checks.
				// Files under heavyFile never come here.
				f.Doc, f.Model = nil, nil
				runtime.GC()
			}
			r.heavy.Unlock()
		}
		if v := recover(); v != nil {
			pe, ok := v.(*PanicError)
			if !ok {
				pe = &PanicError{Value: v, Stack: debug.Stack()}
			}
			if pe.File == "" {
				pe.File = in.Path
			}
			panic(pe)
		}
	}()
	res.Checksum = r.check(f, in)
	res.own = f.own
	// The report needs the text for its source lines, suppression the comments; neither
	// needs the value tree, and a clean file without comments needs nothing.
	res.inline = r.inlineIgnores(f.Doc)
	if r.Simulation != nil && !in.Context {
		res.Simulation = r.simulate(f, res.inline)
	}
	res.Diagnostics = f.diags
	if len(f.diags) > 0 || len(res.inline) > 0 {
		res.Doc = reportDoc(f, res.inline)
	}
	if f.Dialect != nil {
		res.Dialect = f.Dialect.ID
	}
	return f, res
}

// check runs the stages on one file and returns its checksum ("" when it has none).
func (r *run) check(f *File, in Input) (sum string) {
	// Stage 1: read.
	data := in.text
	if in.Stdin {
		data = string(in.Data)
	} else if buf, ok := r.Overlay[absOrSelf(in.Path)]; ok {
		data, in.Stdin = string(buf), true
	}
	if !in.Stdin && in.read == nil {
		var err error
		if data, _, err = readInput(&in); err != nil {
			rule := "read"
			var re *source.ReadError
			if errors.As(err, &re) && re.TooLarge {
				rule = "size-limit"
			}
			msg := err.Error()
			if re != nil {
				msg = re.Problem
			}
			f.ReportAt(rule, "", fileStart, msg)
			return ""
		}
	}
	if int64(len(data)) > r.Config.Limits.MaxBytes {
		f.ReportAt("size-limit", "", fileStart,
			fmt.Sprintf("the file is %d bytes, more than limits.max_bytes (%d)", len(data), r.Config.Limits.MaxBytes))
		// An error stops here: parsing a file the run already fails for costs memory
		// (a tree is ~100 bytes a value) and finds nothing the user can act on before
		// the file shrinks. With size-limit lowered to a warning the file is checked.
		if f.severity("size-limit") == Error {
			f.Doc = source.Head(in.Path, data, 4096)
			return ""
		}
	}
	if len(data) > heavyFile {
		r.heavy.Lock() // released by run.file once the file's report is made
		f.heavy = true
	}
	// Stage 2: parse.
	format := source.FormatOf(in.Path, data)
	doc, err := source.ParseString(in.Path, data, format)
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
	if r.Dialect == "" && IsBaseline(doc.Root) {
		// A baseline dws wrote is never a definition, whatever its name.
		f.own = true
		return ""
	}
	if r.Dialect == "" && IsScenario(in.Path) {
		// Nor is a scenario: its shape is checked against the scenario schema (dws
		// schema scenario); what it names, dws test checks against its definition.
		scenarioShape(f, doc)
		return ""
	}
	// The document's own properties: no dialect needed.
	if doc.MayHaveLongNumbers() {
		numberPrecision(f, doc.Root) // else no number has the digits to lose precision
	}
	if in.Context {
		return ""
	}
	// Stage 9 needs nothing the other stages produce: its canonicalisation runs beside
	// them (a large definition spends a tenth of its time there), its findings after.
	var sumErr error
	wait := r.lim.Go(func() { sum, sumErr = canonical.ChecksumNode(doc.Root) })
	defer func() {
		wait()
		sum = r.checksum(f, sum, sumErr)
	}()
	// Stage 3: dialect.
	d := r.dialectFor(f)
	if d == nil {
		return sum
	}
	f.Dialect = d
	if d.Decode != nil {
		f.Model = d.Decode(doc)
	}
	p := &Pass{File: f, Model: f.Model}
	// Stage 4: schema. It reads only the document, so it runs beside the graph and the
	// rules (on a cold start, compiling the dialect's verdict overlaps the dialect's
	// own checks); its findings are recorded once they are done, and the report sorts
	// them among the rest.
	var failures []schema.Failure
	var schemaErr error
	schemaDone := sync.OnceFunc(r.lim.Go(func() { failures, schemaErr = schema.ValidateNode(d.ID, doc.Root) }))
	// Waited for on every way out, a panicking rule's included: nothing may still read
	// the tree once check returns (the caller may release it).
	defer schemaDone()
	// Stage 5: graph.
	if d.Graphs != nil && f.on(graphRuleIDs...) {
		f.running(checkRun{what: "the graph of ", name: d.ID, rules: graphRuleIDs})
		checks := d.Graphs(p)
		for _, gc := range checks {
			opts := gc.Options
			if opts.MaxNodes == 0 {
				opts.MaxNodes = r.Config.Limits.MaxSteps
			}
			for _, fd := range graph.Check(gc.Graph, opts) {
				rel := make([]Related, 0, len(fd.Related))
				for _, rl := range fd.Related {
					rel = append(rel, f.Related(rl.Pointer, rl.Message))
				}
				f.Report(GraphRule(fd.Kind), fd.Pointer, fd.Message, rel...)
			}
		}
		f.done()
	}
	// Stage 6: the dialect's rules. A rule turned off does not run.
	for _, rule := range d.Rules {
		if rule.Check != nil && f.on(rule.ID) {
			f.running(checkRun{what: "rule ", name: rule.ID, one: rule.ID})
			rule.Check(p)
			f.done()
		}
	}
	for _, c := range d.Checks {
		if f.on(c.Rules...) {
			f.running(checkRun{what: " check of ", name: d.ID, rules: c.Rules})
			c.Run(p)
			f.done()
		}
	}
	// Stage 7: SQL, for a dialect whose documents hold some.
	if d.SQLSites != nil && f.on(sqlRuleIDs...) {
		f.running(checkRun{what: "the SQL stage on ", name: d.ID, rules: sqlRuleIDs})
		checkSQL(p, d.SQLSites(p))
		f.done()
	}
	schemaDone()
	if schemaErr != nil {
		f.ReportAt("schema", "", fileStart, schemaErr.Error())
	}
	rejected := map[string]bool{}
	for _, fl := range failures {
		if fl.Key {
			f.ReportKey("schema", fl.Pointer, fl.Message)
		} else {
			f.Report("schema", fl.Pointer, fl.Message)
			rejected[fl.Pointer] = true
		}
	}
	// A number the schema rejects must change anyway: its imprecision is not a second
	// finding.
	if len(rejected) > 0 {
		f.diags = slices.DeleteFunc(f.diags, func(d Diagnostic) bool {
			return d.Rule == "number-precision" && rejected[d.Pointer]
		})
	}
	return sum // set by the deferred checksum stage
}

// scenarioShape reports where a scenario file breaks the embedded scenario schema, as
// the schema stage does for a definition: each failing value at its own place.
func scenarioShape(f *File, doc *source.Document) {
	failures, err := schema.ValidateNode("scenario", doc.Root)
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
}

// simulate explores a file that validated without an error: none that its inline
// ignores, the config's ignore entries or the baseline leave in the report, which is
// what the exit code judges too. Its findings are the file's, suppressed and sorted
// with the others.
func (r *run) simulate(f *File, inline []inlineIgnore) *Simulation {
	if why := unread(f); why != "" {
		return &Simulation{Skipped: why}
	}
	switch {
	case f.Dialect == nil && IsScenario(f.Path):
		return &Simulation{Skipped: "it is a scenario file (dws test runs it)"}
	case f.Dialect == nil:
		return &Simulation{Skipped: "it has no dialect"}
	case f.Dialect.Simulate == nil:
		return &Simulation{Skipped: "dialect " + f.Dialect.ID + " is not simulated", NoRuns: f.Dialect.ID}
	}
	if r.errorsLeft(f.Path, inline, f.diags) {
		return &Simulation{Skipped: "it does not validate"}
	}
	defs, err := f.Dialect.Simulate(&Pass{File: f, Model: f.Model}, r.Simulation.Options, r.Simulation.MaxPaths)
	return &Simulation{Definitions: defs, Err: err}
}

// unread says why a file that was never parsed into a tree was not (it could not be
// read, it is too large, it does not parse); "" for a file that was.
func unread(f *File) string {
	for _, d := range f.diags {
		switch d.Rule {
		case "read":
			return "it could not be read"
		case "size-limit":
			if d.Severity == Error {
				return "it is larger than limits.max_bytes"
			}
		case "parse":
			return "it does not parse"
		}
	}
	return ""
}

// reportDoc is what the report needs of a checked file: the text around each finding
// and each inline ignore.
func reportDoc(f *File, inline []inlineIgnore) *source.Document {
	if f.Doc == nil {
		return nil
	}
	at := map[int][]int{}
	for _, d := range f.diags {
		at[d.Line] = append(at[d.Line], d.Column, max(d.EndColumn-1, d.Column))
	}
	// An inline ignore that matches nothing is reported at its comment.
	for _, in := range inline {
		at[int(in.at.Line)] = append(at[int(in.at.Line)], int(in.at.Col))
	}
	return f.Doc.Excerpt(at, excerptMargin)
}

// excerptMargin is how many characters of a line are kept either side of a finding;
// the text report shows at most 100 of them.
const excerptMargin = 256

// heavyFile is the size above which a file is checked alone: a value tree costs about a
// hundred times the text it was read from.
const heavyFile = 1 << 20

// graphRuleIDs are the rules of the graph stage.
var graphRuleIDs = []string{"duplicate-id", "dangling-edge", "entry", "unreachable", "cycle", "dead-end", "step-limit"}

// dialectFor picks the file's dialect by SPEC §2's precedence, reporting `dialect` when
// none fits.
func (r *run) dialectFor(f *File) *Dialect {
	l := r.Linter
	want, why := l.Dialect, "--dialect"
	if want == "" && len(l.Config.Dialects) > 0 {
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
		if d, ok := l.Registry.Dialect(want); ok {
			if !d.Detect(f.Doc) {
				f.ReportAt("dialect", "", fileStart,
					fmt.Sprintf("%s asks for dialect %s, but the file does not look like one", why, want))
				return nil
			}
			return d
		}
		f.ReportAt("dialect", "", fileStart, fmt.Sprintf("%s asks for dialect %q, which this dws does not know", why, want))
		return nil
	}
	for _, d := range l.Registry.Dialects() {
		if d.Detect(f.Doc) {
			return d
		}
	}
	ids := l.Registry.DialectIDs()
	// A file no dialect fits is as often no definition at all (a package.json that
	// pre-commit passes): say how to leave it out, too.
	leaveOut := "exclude: in .dws.yaml"
	if rel := l.Config.Rel(f.Path); !f.stdin && rel != ".." && !strings.HasPrefix(rel, "../") {
		// The glob that takes exactly this file (its globs apply inside the config's tree).
		glob := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "{", `\{`).Replace(rel)
		leaveOut = fmt.Sprintf("exclude: [%s] in .dws.yaml", strconv.Quote(glob))
	}
	f.ReportAt("dialect", "", fileStart, fmt.Sprintf(
		"no dialect fits this file (known: %s); name one with --dialect or a dialects: glob in .dws.yaml, "+
			"or, if it is no definition, leave it out: %s, or exclude: in the pre-commit hook",
		strings.Join(ids, ", "), leaveOut))
	return nil
}
