package cortex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"go.yaml.in/yaml/v3"
)

// Settings is the `cortex:` section of .dws.yaml.
type Settings struct {
	// Registry is the prompt-template registry; nil when none is configured.
	Registry *Registry
	// Context lists the variables a run starts with; nil when not configured, which
	// turns template-variable off.
	Context []string
}

// Registry is a prompt-template registry file (SPEC §4.2).
type Registry struct {
	Path      string
	Templates map[string]Template
	// Schemas maps an output-schema name to its top-level property names.
	Schemas map[string][]string
}

// Template is one prompt template an ai step may name.
type Template struct {
	Purpose string
	Schema  string
}

// ConfigSections implements lint.Configurable.
func (Dialect) ConfigSections() map[string]lint.SectionParser {
	return map[string]lint.SectionParser{"cortex": parseSettings, "sql": parseSQLSettings}
}

func settingsOf(c *lint.Config) *Settings {
	if c != nil {
		if s, ok := c.Section("cortex").(*Settings); ok {
			return s
		}
	}
	return &Settings{}
}

func parseSettings(n *yaml.Node, dir string) (any, error) {
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("want a mapping {prompt_templates, context}")
	}
	s := &Settings{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "prompt_templates":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return nil, &lint.ConfigError{Line: v.Line, Column: v.Column, Msg: "cortex.prompt_templates: want a file path"}
			}
			reg, err := LoadRegistry(filepath.Join(dir, filepath.FromSlash(v.Value)))
			if reg != nil {
				reg.Path = v.Value // as the user wrote it, for messages
			}
			if err != nil {
				return nil, &lint.ConfigError{Line: v.Line, Column: v.Column, Msg: "cortex.prompt_templates: " + err.Error()}
			}
			s.Registry = reg
		case "context":
			if v.Kind != yaml.SequenceNode {
				return nil, &lint.ConfigError{Line: v.Line, Column: v.Column, Msg: "cortex.context: want a list of variable names"}
			}
			s.Context = []string{}
			for _, c := range v.Content {
				if c.Kind != yaml.ScalarNode || !validVariable(c.Value) {
					return nil, &lint.ConfigError{Line: c.Line, Column: c.Column, Msg: fmt.Sprintf("cortex.context: %q is not a variable name", c.Value)}
				}
				s.Context = append(s.Context, c.Value)
			}
		default:
			return nil, &lint.ConfigError{Line: k.Line, Column: k.Column,
				Msg: fmt.Sprintf("cortex: unknown key %q (want prompt_templates, context)", k.Value)}
		}
	}
	return s, nil
}

// LoadRegistry reads a prompt-template registry (YAML or JSON).
func LoadRegistry(path string) (*Registry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	bad := func(ptr, format string, args ...any) error {
		line := 1
		if sp, ok := doc.PointerSpan(ptr); ok {
			line = sp.Start.Line
		}
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	root := doc.Root
	if root.Kind != source.Object {
		return nil, bad("", "a registry is a mapping with templates and schemas")
	}
	reg := &Registry{Path: path, Templates: map[string]Template{}, Schemas: map[string][]string{}}
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
		for _, p := range m.Value.Get("properties").Entries() {
			props = append(props, p.Key)
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
