package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/source"
)

// ConfigName is the file dws looks for in the current directory and its parents.
const ConfigName = ".dws.yaml"

// Defaults of SPEC §14.
const (
	DefaultMaxBytes = 65536
	DefaultMaxSteps = 100
)

// Config is a loaded .dws.yaml (or the defaults when there is none).
type Config struct {
	// Path is the file it was read from; empty for the defaults.
	Path string
	// Dir is the directory every relative path and glob in the config is relative to.
	Dir      string
	Include  []string
	Exclude  []string
	Dialects []DialectGlob
	Limits   Limits
	Rules    map[string]Severity
	Ignore   []Ignore
	Baseline string
	Lock     string
	// Renames are the declared renames of units and nodes (dws diff).
	Renames []change.Rename
	// Interactive marks a config of a long-lived session that checks the same files
	// again and again (dws lsp): stages may remember results across runs.
	Interactive bool
	// InlineSecurityWaivers lets inline dws:ignore comments suppress the rules that guard
	// security (InlineIfConfigured).
	InlineSecurityWaivers bool

	sections map[string]any
	// loads are the sections' loads a config read by LoadConfigDeferring leaves for
	// LoadSections; nil when there are none left. A pointer, so that copies of the
	// config share them.
	loads *sectionLoads
	// defaults are the rule severities the sections set (RuleDefaults); a severity
	// under rules: wins over them.
	defaults map[string]Severity
}

// SectionLoader is implemented by a parsed config section that leaves its costly part
// (reading and parsing the files it names: a DDL through PostgreSQL's parser, a
// template registry) to Load. Its parse checks the section itself and knows the files
// it names (NamedFiles), so that a config is checked and a run's cache scope known
// without the loads; LoadConfig loads every section as it reads the config, and
// LoadConfigDeferring leaves them for LoadSections. A Load error is reported as a
// parse error is (a *ConfigError at the section's value, or a section's own error type
// the SectionParser converts).
type SectionLoader interface {
	Load() error
}

// sectionLoads are a config's deferred loads, done once.
type sectionLoads struct {
	once sync.Once
	err  error
	todo []sectionLoad
}

type sectionLoad struct {
	key    string
	value  *source.Node
	loader SectionLoader
}

// LoadSections loads the sections a config read by LoadConfigDeferring left unloaded
// (once; every later call returns the first call's answer): the error, a
// *ConfigError, is the one LoadConfig would have returned for it. Nothing to load is
// no error.
func (c *Config) LoadSections() error {
	if c.loads == nil {
		return nil
	}
	c.loads.once.Do(func() { c.loads.err = loadAll(c.Path, c.loads.todo) })
	return c.loads.err
}

// loadAll runs the loads side by side and returns the first error in the order of the
// config's keys, naming the config at path.
func loadAll(path string, todo []sectionLoad) error {
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	var crash crashBox
	for i, t := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.catch()
			errs[i] = sectionError(t.key, t.value, t.loader.Load())
		}()
	}
	wg.Wait()
	crash.raise()
	for _, err := range errs {
		if err != nil {
			if ce := (*ConfigError)(nil); errors.As(err, &ce) && ce.Path == "" {
				ce.Path = path
			}
			return err
		}
	}
	return nil
}

// sectionError is a section's parse or load error as the config reports it: a
// *ConfigError (at the section's value when the error has no place of its own).
func sectionError(key string, value *source.Node, err error) error {
	if err == nil {
		return nil
	}
	err = sqlConfigError(err)
	var ce *ConfigError
	if !errors.As(err, &ce) {
		ce = ConfigErrorAt(value, "%s: %v", key, err)
	}
	return ce
}

// DialectGlob maps files matching Glob to a dialect; the first matching entry wins.
type DialectGlob struct {
	Glob    string
	Dialect string
}

// Limits are the size limits of SPEC §3.
type Limits struct {
	MaxBytes int64
	MaxSteps int
}

// Ignore is one ignore entry of the config.
type Ignore struct {
	Path    string
	Rules   []string
	Pointer string
	Reason  string
	Line    int
	Column  int
}

// Section returns the parsed value of a config section a dialect (or the SQL stage)
// owns, or nil. A config whose loads were deferred is loaded first: a caller of
// LoadConfigDeferring that checks files calls LoadSections before, and stops on its
// error; a section used after a failed load is a bug in dws.
func (c *Config) Section(name string) any {
	if err := c.LoadSections(); err != nil {
		panic(fmt.Sprintf("lint: config section %s used, but the config's sections did not load: %v", name, err))
	}
	return c.sections[name]
}

// RuleDefaults is implemented by a parsed section that changes the default severity of
// rules of its dialect: DireClaw's release, which decides whether direclaw-compat is an
// error, a warning or off. A severity set under rules: still wins; rules the section
// does not name keep their registered default.
type RuleDefaults interface {
	RuleDefaults() map[string]Severity
}

// Files returns the config file and every file it names whose bytes a result can
// depend on (the lockfile, and what a section reads: a DDL, a registry), sorted.
// The baseline is not among them: it only hides findings after they are made.
func (c *Config) Files() []string {
	var files []string
	if c.Path != "" {
		files = append(files, c.Path)
	}
	if c.Lock != "" {
		files = append(files, c.Lock)
	}
	for _, s := range c.sections {
		if n, ok := s.(interface{ NamedFiles() []string }); ok {
			files = append(files, n.NamedFiles()...)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// SectionParser parses a config section owned by a dialect (for example `cortex:`).
// dir is the config's directory, for resolving the paths the section names (see
// ConfigPath). A problem is best returned as ConfigErrorAt the offending value.
type SectionParser func(n *source.Node, dir string) (any, error)

// ConfigError is a problem in .dws.yaml. dws exits 2 on it.
type ConfigError struct {
	Path   string
	Line   int
	Column int
	Msg    string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// ConfigErrorAt is a config problem at the value n (nil: the whole file); the caller
// that knows the config's path fills it in.
func ConfigErrorAt(n *source.Node, format string, args ...any) *ConfigError {
	e := &ConfigError{Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = int(n.Span.Start.Line), int(n.Span.Start.Col)
	}
	return e
}

// ConfigPath resolves a path written in the config: relative to the config's
// directory, an absolute one as it is.
func ConfigPath(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Scalar is the text of a scalar value as written for a message: a string's value, a
// number's literal, true, false or null; "" for an array or object.
func Scalar(n *source.Node) string {
	switch n.Kind {
	case source.String, source.Number:
		return n.Text
	case source.Bool:
		return strconv.FormatBool(n.Bool)
	case source.Null:
		return "null"
	}
	return ""
}

// coreKeys are the keys of .dws.yaml that lint itself owns; every other key is a
// section: the SQL stage's sql:, or a dialect's.
var coreKeys = map[string]bool{
	"version": true, "include": true, "exclude": true, "dialects": true, "limits": true,
	"rules": true, "ignore": true, "baseline": true, "lock": true, "renames": true,
	"inline_security_waivers": true,
}

// DefaultConfig is the configuration in force when there is no .dws.yaml.
func DefaultConfig(dir string) *Config {
	return &Config{
		Dir:     dir,
		Include: []string{"**/*.json", "**/*.yaml", "**/*.yml"},
		Limits:  Limits{MaxBytes: DefaultMaxBytes, MaxSteps: DefaultMaxSteps},
		Rules:   map[string]Severity{},
	}
}

// FindConfig returns the path of the nearest .dws.yaml in dir or its parents.
func FindConfig(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(abs, ConfigName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", false
		}
		abs = parent
	}
}

// LoadConfig reads and checks a config file through the one bounded reading path.
// Every problem is a *ConfigError naming the key.
func LoadConfig(path string, reg *Registry) (*Config, error) {
	return loadConfig(path, reg, false)
}

// LoadConfigDeferring is LoadConfig, but it leaves the sections' loads (SectionLoader:
// the files they name, read and parsed) to LoadSections, for a run that may find it
// needs none of them (dws validate answered from its cache throughout). The config is
// checked all the same, and an error LoadConfig would return for a key before a
// deferred section's is returned as LoadConfig returns it.
func LoadConfigDeferring(path string, reg *Registry) (*Config, error) {
	return loadConfig(path, reg, true)
}

func loadConfig(path string, reg *Registry, deferLoads bool) (*Config, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		var re *source.ReadError
		if errors.As(err, &re) {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &ConfigError{Path: path, Msg: "config file does not exist"}
			}
			return nil, &ConfigError{Path: path, Msg: re.Problem}
		}
		return nil, &ConfigError{Path: path, Msg: err.Error()}
	}
	return parseConfig(path, data, reg, deferLoads)
}

// configKey parses one core key of the config into cfg.
type configKey func(c *configParse, key string, v *source.Node) error

// configParse is one config being parsed.
type configParse struct {
	cfg *Config
	reg *Registry
	dir string
}

var configKeys = map[string]configKey{
	"version":  parseVersion,
	"include":  parseGlobs,
	"exclude":  parseGlobs,
	"dialects": parseDialects,
	"limits":   parseLimits,
	"rules":    parseRules,
	"ignore":   parseIgnores,
	"baseline": parseFileKey,
	"lock":     parseFileKey,
	"renames":  parseRenames,

	"inline_security_waivers": func(c *configParse, key string, v *source.Node) error {
		if v.Kind != source.Bool {
			return ConfigErrorAt(v, "%s: want true or false", key)
		}
		c.cfg.InlineSecurityWaivers = v.Bool
		return nil
	},
}

// ParseConfig checks config text as if read from path. It is read by the same loader
// as definitions, so every key has a position and a duplicate key at any level is an
// error.
func ParseConfig(path string, data []byte, reg *Registry) (cfg *Config, err error) {
	return parseConfig(path, data, reg, false)
}

func parseConfig(path string, data []byte, reg *Registry, deferLoads bool) (cfg *Config, err error) {
	dir, _ := filepath.Abs(filepath.Dir(path))
	defer func() {
		var ce *ConfigError
		if errors.As(err, &ce) && ce.Path == "" {
			ce.Path = path
		}
	}()
	if blankYAML(data) {
		cfg = DefaultConfig(dir)
		cfg.Path = path
		return cfg, nil // an empty file is the defaults
	}
	doc, perr := source.Parse(path, data, source.YAML)
	if perr != nil {
		var se *source.Error
		if errors.As(perr, &se) {
			return nil, &ConfigError{Line: int(se.Pos.Line), Column: int(se.Pos.Col), Msg: "not valid YAML: " + se.Msg}
		}
		return nil, &ConfigError{Msg: "not valid YAML: " + perr.Error()}
	}
	root := doc.Root
	if root.Kind == source.Null {
		cfg = DefaultConfig(dir)
		cfg.Path = path
		return cfg, nil
	}
	if root.Kind != source.Object {
		return nil, ConfigErrorAt(root, "the config must be a mapping")
	}
	c := &configParse{cfg: DefaultConfig(dir), reg: reg, dir: dir}
	c.cfg.Path = path
	c.cfg.sections = map[string]any{}
	// The keys that others depend on (known dialects, known rules) need nothing parsed
	// before them; each key is parsed on its own. The dialects' sections read files (a
	// DDL to parse, a template registry), so they are parsed and loaded side by side;
	// the error returned is still the first key's in the file.
	errs := make([]error, len(root.Members))
	vals := make([]any, len(root.Members))
	section := make([]bool, len(root.Members))
	loaders := make([]SectionLoader, len(root.Members))
	var wg sync.WaitGroup
	var crash crashBox // a section parser's panic is re-raised here, as if it ran here
	for i, m := range root.Members {
		if parse, ok := configKeys[m.Key]; ok {
			errs[i] = parse(c, m.Key, m.Value)
			continue
		}
		sec, ok := reg.sections[m.Key]
		if !ok {
			errs[i] = &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("unknown key %q", m.Key)}
			continue
		}
		section[i] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.catch()
			vals[i], errs[i] = sec.parse(m.Value, dir)
			errs[i] = sectionError(m.Key, m.Value, errs[i])
			if ld, ok := vals[i].(SectionLoader); ok && errs[i] == nil {
				loaders[i] = ld
				if !deferLoads {
					errs[i] = sectionError(m.Key, m.Value, ld.Load())
				}
			}
		}()
	}
	wg.Wait()
	crash.raise()
	var todo []sectionLoad
	for i, m := range root.Members {
		if deferLoads && loaders[i] != nil {
			todo = append(todo, sectionLoad{key: m.Key, value: m.Value, loader: loaders[i]})
		}
		if errs[i] != nil {
			// A deferred section before this key may fail to load: its error comes
			// first, as LoadConfig would return it.
			if err := loadAll(path, todo); err != nil {
				return nil, err
			}
			return nil, errs[i]
		}
		if section[i] {
			c.cfg.sections[m.Key] = vals[i]
			if rd, ok := vals[i].(RuleDefaults); ok {
				for id, sev := range rd.RuleDefaults() {
					if _, known := reg.Lookup(id); !known {
						panic(fmt.Sprintf("lint: section %s sets the severity of rule %q, which is not registered", m.Key, id))
					}
					if c.cfg.defaults == nil {
						c.cfg.defaults = map[string]Severity{}
					}
					c.cfg.defaults[id] = sev
				}
			}
		}
	}
	if len(todo) > 0 {
		c.cfg.loads = &sectionLoads{todo: todo}
	}
	return c.cfg, nil
}

// blankYAML reports a file holding nothing but blank lines and comments, which is
// the defaults.
func blankYAML(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "\uFEFF"))
		if line != "" && !strings.HasPrefix(line, "#") && line != "---" {
			return false
		}
	}
	return true
}

func parseVersion(_ *configParse, _ string, v *source.Node) error {
	if (v.Kind != source.Number && v.Kind != source.String) || v.Text != "1" {
		return ConfigErrorAt(v, "version: only version 1 exists")
	}
	return nil
}

func parseGlobs(c *configParse, key string, v *source.Node) error {
	globs, err := stringList(v)
	if err != nil {
		return ConfigErrorAt(v, "%s: %v", key, err)
	}
	for _, g := range globs {
		if why := globProblem(g); why != "" {
			return ConfigErrorAt(v, "%s: %q %s", key, g, why)
		}
	}
	if key == "include" {
		c.cfg.Include = globs
	} else {
		c.cfg.Exclude = globs
	}
	return nil
}

func parseDialects(c *configParse, _ string, v *source.Node) error {
	if v.Kind != source.Object {
		return ConfigErrorAt(v, "dialects: want a mapping of glob to dialect")
	}
	for _, m := range v.Members {
		if why := globProblem(m.Key); why != "" {
			return &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("dialects: %q %s", m.Key, why)}
		}
		id := Scalar(m.Value)
		if _, ok := c.reg.Dialect(id); !ok || m.Value.Kind != source.String {
			return ConfigErrorAt(m.Value, "dialects.%s: unknown dialect %q", m.Key, id)
		}
		c.cfg.Dialects = append(c.cfg.Dialects, DialectGlob{Glob: m.Key, Dialect: id})
	}
	return nil
}

func parseLimits(c *configParse, _ string, v *source.Node) error {
	if v.Kind != source.Object {
		return ConfigErrorAt(v, "limits: want a mapping")
	}
	for _, m := range v.Members {
		n := m.Value
		x, err := strconv.ParseInt(n.Text, 10, 64)
		if err != nil || (n.Kind != source.Number && n.Kind != source.String) || x <= 0 {
			return ConfigErrorAt(n, "limits.%s: want a positive integer", m.Key)
		}
		switch m.Key {
		case "max_bytes":
			if x > source.MaxFileSize {
				return ConfigErrorAt(n, "limits.max_bytes: at most %d (files above 4 MiB are never parsed)", source.MaxFileSize)
			}
			c.cfg.Limits.MaxBytes = x
		case "max_steps":
			if x > 1_000_000 {
				return ConfigErrorAt(n, "limits.max_steps: at most 1000000")
			}
			c.cfg.Limits.MaxSteps = int(x)
		default:
			return &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("limits: unknown key %q (want max_bytes, max_steps)", m.Key)}
		}
	}
	return nil
}

func parseRules(c *configParse, _ string, v *source.Node) error {
	if v.Kind != source.Object {
		return ConfigErrorAt(v, "rules: want a mapping of rule id to severity")
	}
	for _, m := range v.Members {
		if _, ok := c.reg.Lookup(m.Key); !ok {
			return &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("rules: unknown rule id %q (%s)", m.Key, c.reg.Unknown(m.Key))}
		}
		sev, err := ParseSeverity(Scalar(m.Value))
		if err != nil || m.Value.Kind != source.String {
			return ConfigErrorAt(m.Value, "rules.%s: %q is not a severity (want error, warning, info or off)", m.Key, Scalar(m.Value))
		}
		if Unsuppressible(m.Key) && sev != Error {
			return ConfigErrorAt(m.Value, "rules.%s: %s is always an error: a file that cannot be read, parsed or given a dialect was not checked, and must not pass (exclude it instead)", m.Key, m.Key)
		}
		c.cfg.Rules[m.Key] = sev
	}
	return nil
}

func parseIgnores(c *configParse, _ string, v *source.Node) error {
	if v.Kind != source.Array {
		return ConfigErrorAt(v, "ignore: want a list of entries")
	}
	for _, e := range v.Items {
		if e.Kind != source.Object {
			return ConfigErrorAt(e, "ignore: each entry is a mapping {path, rules, pointer, reason}")
		}
		ig := Ignore{Line: int(e.Span.Start.Line), Column: int(e.Span.Start.Col)}
		for _, m := range e.Members {
			n := m.Value
			switch m.Key {
			case "path":
				if n.Kind != source.String {
					return ConfigErrorAt(n, "ignore.path: %q is not a valid glob", Scalar(n))
				}
				if why := globProblem(n.Text); why != "" {
					return ConfigErrorAt(n, "ignore.path: %q %s", n.Text, why)
				}
				ig.Path = n.Text
			case "rules":
				ids, err := stringList(n)
				if err != nil {
					return ConfigErrorAt(n, "ignore.rules: %v", err)
				}
				for _, id := range ids {
					if _, ok := c.reg.Lookup(id); !ok {
						return ConfigErrorAt(n, "ignore.rules: unknown rule id %q (%s)", id, c.reg.Unknown(id))
					}
					if Unsuppressible(id) {
						return ConfigErrorAt(n, "ignore.rules: %s cannot be ignored: a file that was not checked must not pass (exclude it instead)", id)
					}
				}
				ig.Rules = ids
			case "pointer":
				if n.Kind != source.String || (n.Text != "" && !strings.HasPrefix(n.Text, "/")) {
					return ConfigErrorAt(n, "ignore.pointer: %q is not a JSON Pointer (it starts with /)", Scalar(n))
				}
				for _, tok := range strings.Split(n.Text, "/")[1:] {
					if _, ok := source.UnescapeToken(tok); !ok {
						return ConfigErrorAt(n, "ignore.pointer: %q is not a JSON Pointer: in %q, ~ must be followed by 0 or 1", n.Text, tok)
					}
				}
				ig.Pointer = n.Text
			case "reason":
				ig.Reason = strings.TrimSpace(Scalar(n))
			default:
				return &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("ignore: unknown key %q (want path, rules, pointer, reason)", m.Key)}
			}
		}
		if ig.Path == "" {
			return ConfigErrorAt(e, "ignore: an entry needs a path")
		}
		if ig.Reason == "" {
			return ConfigErrorAt(e, "ignore: an entry needs a reason")
		}
		c.cfg.Ignore = append(c.cfg.Ignore, ig)
	}
	return nil
}

func parseFileKey(c *configParse, key string, v *source.Node) error {
	if v.Kind != source.String || v.Text == "" {
		return ConfigErrorAt(v, "%s: want a file path", key)
	}
	p := ConfigPath(c.dir, v.Text)
	if key == "baseline" {
		c.cfg.Baseline = p
	} else {
		c.cfg.Lock = p
	}
	return nil
}

// Bounds on a glob's complexity. Matching backtracks over {a,b} alternatives and **
// segments, so a pattern with many of them takes exponential time on every path; no
// real include list needs more than these.
const (
	maxGlobAlternatives = 256
	maxGlobStars        = 4
)

// globProblem says what is wrong with a glob, "" when nothing is.
func globProblem(g string) string {
	if !doublestar.ValidatePattern(g) {
		return "is not a valid glob"
	}
	if n := strings.Count(g, "**"); n > maxGlobStars {
		return fmt.Sprintf("has %d ** segments (at most %d)", n, maxGlobStars)
	}
	if n := alternatives(g); n > maxGlobAlternatives {
		return fmt.Sprintf("expands to more than %d alternatives through its {…} groups; list the patterns instead", maxGlobAlternatives)
	}
	return ""
}

// alternatives counts the patterns a glob's {a,b} groups expand to (nested groups
// included), stopping once the count passes the bound.
func alternatives(g string) int {
	var count func(i int, inGroup bool) (n, next int)
	// count reads a sequence up to the end, a "}" or (inside a group) a ",", and returns
	// how many expansions it has.
	count = func(i int, inGroup bool) (int, int) {
		n := 1
		for i < len(g) {
			switch g[i] {
			case '\\':
				i += 2
				continue
			case '{':
				total := 0
				i++
				for {
					alt, j := count(i, true)
					total = min(total+alt, maxGlobAlternatives+1)
					i = j
					if i >= len(g) || g[i] == '}' {
						break
					}
					i++ // the comma
				}
				n = min(n*max(total, 1), maxGlobAlternatives+1)
				i++
				continue
			case ',', '}':
				if inGroup {
					return n, i
				}
			}
			i++
		}
		return n, i
	}
	n, _ := count(0, false)
	return n
}

func stringList(n *source.Node) ([]string, error) {
	if n.Kind == source.String {
		return []string{n.Text}, nil
	}
	if n.Kind != source.Array {
		return nil, errors.New("want a list of strings")
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind != source.String {
			return nil, errors.New("want a list of strings")
		}
		out = append(out, it.Text)
	}
	return out, nil
}

// Rel returns path relative to the config directory, slash-separated, for glob matching.
func (c *Config) Rel(path string) string { return c.relAbs(absOrSelf(path)) }

// relAbs is Rel of a clean absolute path.
func (c *Config) relAbs(abs string) string {
	if rest, ok := strings.CutPrefix(abs, c.Dir); ok && len(rest) > 1 && rest[0] == filepath.Separator && filepath.IsAbs(c.Dir) && c.Dir == filepath.Clean(c.Dir) {
		return filepath.ToSlash(rest[1:]) // inside the config's directory, as nearly every file is
	}
	rel, err := filepath.Rel(c.Dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

func matchAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}
