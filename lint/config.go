package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// ConfigName is the file dws looks for in the current directory and its parents.
const ConfigName = ".dws.yaml"

// Defaults of SPEC §14.
const (
	DefaultMaxBytes = 65536
	DefaultMaxSteps = 100
	// readCeiling is the size above which a file is not read at all.
	readCeiling = 4 << 20
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

	sections map[string]any
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

// Section returns the parsed value of a dialect-owned config section, or nil.
func (c *Config) Section(name string) any { return c.sections[name] }

// SectionParser parses a config section owned by a dialect (for example `cortex:`).
// dir is the config's directory, for resolving the paths the section names.
type SectionParser func(node *yaml.Node, dir string) (any, error)

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

// LoadConfig reads and checks a config file. Every problem is a *ConfigError naming the key.
func LoadConfig(path string, reg *Registry, dialects []Dialect) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ConfigError{Path: path, Msg: "config file does not exist"}
		}
		return nil, &ConfigError{Path: path, Msg: err.Error()}
	}
	return ParseConfig(path, data, reg, dialects)
}

// ParseConfig checks config text as if read from path.
func ParseConfig(path string, data []byte, reg *Registry, dialects []Dialect) (cfg *Config, err error) {
	dir, _ := filepath.Abs(filepath.Dir(path))
	cfg = DefaultConfig(dir)
	cfg.Path = path
	fail := func(n *yaml.Node, format string, args ...any) error {
		e := &ConfigError{Path: path, Msg: fmt.Sprintf(format, args...)}
		if n != nil {
			e.Line, e.Column = n.Line, n.Column
		}
		return e
	}
	defer func() {
		// yaml.v3 has panicked on hostile input before; a config problem is never a crash.
		if r := recover(); r != nil {
			cfg, err = nil, fail(nil, "cannot read config: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(nil, "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return cfg, nil // an empty file is the defaults
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "the config must be a mapping")
	}
	owners := map[string]SectionParser{}
	for _, d := range dialects {
		if c, ok := d.(Configurable); ok {
			for name, p := range c.ConfigSections() {
				owners[name] = p
			}
		}
	}
	knownDialect := map[string]bool{}
	for _, d := range dialects {
		knownDialect[d.ID()] = true
	}
	seen := map[string]bool{}
	cfg.sections = map[string]any{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, fail(k, "key %q is given twice", k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "version":
			if v.Value != "1" || v.Kind != yaml.ScalarNode {
				return nil, fail(v, "version: only version 1 exists")
			}
		case "include", "exclude":
			globs, err := stringList(v)
			if err != nil {
				return nil, fail(v, "%s: %v", k.Value, err)
			}
			for _, g := range globs {
				if !doublestar.ValidatePattern(g) {
					return nil, fail(v, "%s: %q is not a valid glob", k.Value, g)
				}
			}
			if k.Value == "include" {
				cfg.Include = globs
			} else {
				cfg.Exclude = globs
			}
		case "dialects":
			if v.Kind != yaml.MappingNode {
				return nil, fail(v, "dialects: want a mapping of glob to dialect")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				g, d := v.Content[j], v.Content[j+1]
				if !doublestar.ValidatePattern(g.Value) {
					return nil, fail(g, "dialects: %q is not a valid glob", g.Value)
				}
				if !knownDialect[d.Value] {
					return nil, fail(d, "dialects.%s: unknown dialect %q", g.Value, d.Value)
				}
				cfg.Dialects = append(cfg.Dialects, DialectGlob{Glob: g.Value, Dialect: d.Value})
			}
		case "limits":
			if err := parseLimits(v, &cfg.Limits, fail); err != nil {
				return nil, err
			}
		case "rules":
			if v.Kind != yaml.MappingNode {
				return nil, fail(v, "rules: want a mapping of rule id to severity")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				id, sv := v.Content[j], v.Content[j+1]
				if _, ok := reg.Lookup(id.Value); !ok {
					return nil, fail(id, "rules: unknown rule id %q (dws rules lists them)", id.Value)
				}
				sev, err := ParseSeverity(sv.Value)
				if err != nil || sv.Kind != yaml.ScalarNode {
					return nil, fail(sv, "rules.%s: %q is not a severity (want error, warning, info or off)", id.Value, sv.Value)
				}
				if Unsuppressible(id.Value) && sev != Error {
					return nil, fail(sv, "rules.%s: %s is always an error: a file that cannot be read, parsed or given a dialect was not checked, and must not pass (exclude it instead)", id.Value, id.Value)
				}
				cfg.Rules[id.Value] = sev
			}
		case "ignore":
			if err := parseIgnores(v, cfg, reg, fail); err != nil {
				return nil, err
			}
		case "baseline", "lock":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return nil, fail(v, "%s: want a file path", k.Value)
			}
			p := filepath.Join(dir, filepath.FromSlash(v.Value))
			if k.Value == "baseline" {
				cfg.Baseline = p
			} else {
				cfg.Lock = p
			}
		default:
			parse, ok := owners[k.Value]
			if !ok {
				return nil, fail(k, "unknown key %q", k.Value)
			}
			val, err := parse(v, dir)
			if err != nil {
				var ce *ConfigError
				if errors.As(err, &ce) {
					ce.Path = path
					return nil, ce
				}
				return nil, fail(v, "%s: %v", k.Value, err)
			}
			cfg.sections[k.Value] = val
		}
	}
	return cfg, nil
}

func parseLimits(v *yaml.Node, l *Limits, fail func(*yaml.Node, string, ...any) error) error {
	if v.Kind != yaml.MappingNode {
		return fail(v, "limits: want a mapping")
	}
	for j := 0; j+1 < len(v.Content); j += 2 {
		k, n := v.Content[j], v.Content[j+1]
		x, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil || n.Kind != yaml.ScalarNode || x <= 0 {
			return fail(n, "limits.%s: want a positive integer", k.Value)
		}
		switch k.Value {
		case "max_bytes":
			if x > readCeiling {
				return fail(n, "limits.max_bytes: at most %d (files above 4 MiB are never parsed)", readCeiling)
			}
			l.MaxBytes = x
		case "max_steps":
			if x > 1_000_000 {
				return fail(n, "limits.max_steps: at most 1000000")
			}
			l.MaxSteps = int(x)
		default:
			return fail(k, "limits: unknown key %q (want max_bytes, max_steps)", k.Value)
		}
	}
	return nil
}

func parseIgnores(v *yaml.Node, cfg *Config, reg *Registry, fail func(*yaml.Node, string, ...any) error) error {
	if v.Kind != yaml.SequenceNode {
		return fail(v, "ignore: want a list of entries")
	}
	for _, e := range v.Content {
		if e.Kind != yaml.MappingNode {
			return fail(e, "ignore: each entry is a mapping {path, rules, pointer, reason}")
		}
		ig := Ignore{Line: e.Line, Column: e.Column}
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, n := e.Content[j], e.Content[j+1]
			switch k.Value {
			case "path":
				if !doublestar.ValidatePattern(n.Value) || n.Kind != yaml.ScalarNode {
					return fail(n, "ignore.path: %q is not a valid glob", n.Value)
				}
				ig.Path = n.Value
			case "rules":
				ids, err := stringList(n)
				if err != nil {
					return fail(n, "ignore.rules: %v", err)
				}
				for _, id := range ids {
					if _, ok := reg.Lookup(id); !ok {
						return fail(n, "ignore.rules: unknown rule id %q", id)
					}
					if Unsuppressible(id) {
						return fail(n, "ignore.rules: %s cannot be ignored: a file that was not checked must not pass (exclude it instead)", id)
					}
				}
				ig.Rules = ids
			case "pointer":
				if n.Kind != yaml.ScalarNode || (n.Value != "" && !strings.HasPrefix(n.Value, "/")) {
					return fail(n, "ignore.pointer: %q is not a JSON Pointer (it starts with /)", n.Value)
				}
				ig.Pointer = n.Value
			case "reason":
				ig.Reason = strings.TrimSpace(n.Value)
			default:
				return fail(k, "ignore: unknown key %q (want path, rules, pointer, reason)", k.Value)
			}
		}
		if ig.Path == "" {
			return fail(e, "ignore: an entry needs a path")
		}
		if ig.Reason == "" {
			return fail(e, "ignore: an entry needs a reason")
		}
		cfg.Ignore = append(cfg.Ignore, ig)
	}
	return nil
}

func stringList(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return []string{n.Value}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, errors.New("want a list of strings")
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return nil, errors.New("want a list of strings")
		}
		out = append(out, c.Value)
	}
	return out, nil
}

// Rel returns path relative to the config directory, slash-separated, for glob matching.
func (c *Config) Rel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
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
