package cortex

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// Settings is the `cortex:` section of .dws.yaml.
type Settings struct {
	// Registry is the prompt-template registry; nil when none is configured.
	Registry *Registry
	// Context lists the variables a run starts with; nil when not configured, which
	// turns template-variable off.
	Context []string
	// registryFile is the registry's path as dws opens it ("" when none), read by Load;
	// registryAt is its value in the config.
	registryFile string
	registryAt   *source.Node
}

// Registry is a prompt-template registry file (SPEC §4.2).
type Registry struct {
	Path      string
	Templates map[string]Template
	// Schemas maps an output-schema name to its top-level property names.
	Schemas map[string][]string
	// Properties maps an output-schema name to what its properties admit, for the
	// values a simulated ai step outputs.
	Properties map[string][]Property
}

// Property is one top-level property of an output schema: the constraints a simulated
// output must meet.
type Property struct {
	Name     string
	Type     string // "number", "integer", "string", "boolean", or "" when any
	Minimum  string // a JSON number literal, "" when unbounded
	Maximum  string
	Enum     []any // nil when any value of the type
	Required bool
}

// Template is one prompt template an ai step may name.
type Template struct {
	Purpose string
	Schema  string
}

// NamedFiles is the registry file the section reads: a result depends on its bytes.
func (s *Settings) NamedFiles() []string {
	if s.registryFile == "" {
		return nil
	}
	return []string{s.registryFile}
}

func settingsOf(c *lint.Config) *Settings {
	if c != nil {
		if s, ok := c.Section("cortex").(*Settings); ok {
			return s
		}
	}
	return &Settings{}
}

// Load reads the prompt-template registry the section names (lint.SectionLoader).
func (s *Settings) Load() error {
	if s.registryFile == "" {
		return nil
	}
	reg, err := LoadRegistry(s.registryFile)
	if err != nil {
		return lint.ConfigErrorAt(s.registryAt, "cortex.prompt_templates: %s", err)
	}
	reg.Path = s.registryAt.Text // as the user wrote it, for messages
	s.Registry = reg
	return nil
}

// parseSettings parses the cortex: section; the registry is read by Load. The error
// for a key after prompt_templates is the registry's, when it has one, as if read in
// order.
func parseSettings(n *source.Node, dir string) (any, error) {
	s, err := parseSection(n, dir)
	if err != nil {
		if s != nil {
			if lerr := s.Load(); lerr != nil {
				return nil, lerr
			}
		}
		return nil, err
	}
	return s, nil
}

func parseSection(n *source.Node, dir string) (*Settings, error) {
	if n.Kind != source.Object {
		return nil, errors.New("want a mapping {prompt_templates, context}")
	}
	s := &Settings{}
	for _, m := range n.Members {
		v := m.Value
		switch m.Key {
		case "prompt_templates":
			if v.Kind != source.String || v.Text == "" {
				return s, lint.ConfigErrorAt(v, "cortex.prompt_templates: want a file path")
			}
			s.registryFile, s.registryAt = lint.ConfigPath(dir, v.Text), v
		case "context":
			if v.Kind != source.Array {
				return s, lint.ConfigErrorAt(v, "cortex.context: want a list of variable names")
			}
			s.Context = []string{}
			for _, c := range v.Items {
				if c.Kind != source.String || !validVariable(c.Text) {
					return s, lint.ConfigErrorAt(c, "cortex.context: %q is not a variable name", lint.Scalar(c))
				}
				s.Context = append(s.Context, c.Text)
			}
		default:
			return s, &lint.ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col),
				Msg: fmt.Sprintf("cortex: unknown key %q (want prompt_templates, context)", m.Key)}
		}
	}
	return s, nil
}

// LoadRegistry reads a prompt-template registry (YAML or JSON).
func LoadRegistry(path string) (*Registry, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %w", err)
	}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	bad := func(ptr, format string, args ...any) error {
		line := 1
		if sp, ok := doc.PointerSpan(ptr); ok {
			line = int(sp.Start.Line)
		}
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	root := doc.Root
	if root.Kind != source.Object {
		return nil, bad("", "a registry is a mapping with templates and schemas")
	}
	reg := &Registry{Path: path, Templates: map[string]Template{}, Schemas: map[string][]string{}, Properties: map[string][]Property{}}
	for _, m := range root.Members {
		if m.Key != "templates" && m.Key != "schemas" {
			return nil, bad("/"+m.Key, "unknown key %q (want templates, schemas)", m.Key)
		}
		if m.Value.Kind != source.Object {
			return nil, bad("/"+m.Key, "%s: want a mapping", m.Key)
		}
	}
	for _, m := range root.Get("schemas").Entries() {
		ptr := source.Pointer("schemas", m.Key)
		if m.Value.Kind != source.Object {
			return nil, bad(ptr, "schema %q: want a JSON Schema object", m.Key)
		}
		props := []string{}
		required := map[string]bool{}
		// A schema without required requires nothing (JSON Schema's default).
		if r := m.Value.Get("required"); r != nil {
			if r.Kind != source.Array {
				return nil, bad(ptr+"/required", "schema %q: required must be a list of property names", m.Key)
			}
			for _, it := range r.Items {
				name, ok := it.Str()
				if !ok {
					return nil, bad(ptr+"/required", "schema %q: required must be a list of property names", m.Key)
				}
				required[name] = true
			}
		}
		for _, p := range m.Value.Get("properties").Entries() {
			props = append(props, p.Key)
			prop := Property{Name: p.Key, Required: required[p.Key]}
			prop.Type, _ = p.Value.Get("type").Str()
			for key, at := range map[string]*string{"minimum": &prop.Minimum, "maximum": &prop.Maximum} {
				if n := p.Value.Get(key); n != nil && n.Kind == source.Number {
					*at = n.Text
				}
			}
			if e := p.Value.Get("enum"); e != nil && e.Kind == source.Array {
				prop.Enum = []any{}
				for _, it := range e.Items {
					prop.Enum = append(prop.Enum, it.Value())
				}
			}
			reg.Properties[m.Key] = append(reg.Properties[m.Key], prop)
		}
		slices.Sort(props)
		reg.Schemas[m.Key] = props
	}
	for _, m := range root.Get("templates").Entries() {
		ptr := source.Pointer("templates", m.Key)
		if m.Value.Kind != source.Object {
			return nil, bad(ptr, "template %q: want a mapping {purpose, schema}", m.Key)
		}
		var t Template
		for _, f := range m.Value.Members {
			v, ok := f.Value.Str()
			switch {
			case !ok:
				return nil, bad(ptr+"/"+f.Key, "template %q: %s must be a string", m.Key, f.Key)
			case f.Key == "purpose":
				t.Purpose = v
			case f.Key == "schema":
				if _, known := reg.Schemas[v]; !known {
					return nil, bad(ptr+"/schema", "template %q names schema %q, which is not under schemas", m.Key, v)
				}
				t.Schema = v
			default:
				return nil, bad(ptr+"/"+f.Key, "template %q: unknown key %q (want purpose, schema)", m.Key, f.Key)
			}
		}
		reg.Templates[m.Key] = t
	}
	return reg, nil
}
