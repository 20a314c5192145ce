package source

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// YAML11Difference is a plain scalar that a YAML 1.1 reader (PyYAML, SnakeYAML, many
// older tools) reads as something other than what dws reads by YAML 1.2: "no" is false
// there and a string here, 010 is eight there and ten here. A signature over the 1.2
// reading proves nothing to a consumer that reads 1.1.
type YAML11Difference struct {
	Span Span
	// Text is the scalar as written; Here and There are its 1.2 and 1.1 readings.
	Text, Here, There string
}

// YAML 1.1's implicit types (yaml.org/type, 2005), for plain scalars.
var (
	yaml11Bool = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	})
	yaml11Int = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+)$`)
	})
	yaml11Float = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
	})
	yaml11Time = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](\.[0-9]*)?(([ \t]*)Z|[-+][0-9][0-9]?(:[0-9][0-9])?)?)?$`)
	})
	yaml11Null = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(~|null|Null|NULL|)$`) })
)

// YAML11Differences lists the plain scalars of a YAML document whose YAML 1.1 reading
// differs from its YAML 1.2 reading, in document order. A JSON document has none.
func (d *Document) YAML11Differences() []YAML11Difference {
	if d.Format != YAML || d.Root == nil {
		return nil
	}
	var out []YAML11Difference
	walkScalars(d.Root, func(m Member) {
		// A key is a string in the JSON data model; 1.1 reads "no:" as false.
		if raw := d.rawSpan(m.KeySpan); raw != "" && !strings.ContainsAny(raw[:1], `'"`) {
			if there, differs := yaml11Reading(raw, &Node{Kind: String, Text: m.Key}); differs {
				out = append(out, YAML11Difference{Span: m.KeySpan, Text: raw, Here: strconv.Quote(m.Key), There: there})
			}
		}
	}, func(n *Node) {
		if n.style != stylePlain || n.Kind == Null {
			return
		}
		raw := d.raw(n)
		here := n.Text
		switch n.Kind {
		case Bool:
			here = strconv.FormatBool(n.Bool)
		case String:
			here = strconv.Quote(n.Text)
		}
		if there, differs := yaml11Reading(raw, n); differs {
			out = append(out, YAML11Difference{Span: n.Span, Text: raw, Here: here, There: there})
		}
	})
	return out
}

// raw is a scalar's text as written.
func (d *Document) raw(n *Node) string {
	if r := d.rawSpan(n.Span); r != "" {
		return r
	}
	return n.Text
}

func (d *Document) rawSpan(sp Span) string {
	if sp.Start.Offset < 0 || int(sp.End.Offset) > len(d.Text) || sp.Start.Offset >= sp.End.Offset {
		return ""
	}
	return strings.TrimSpace(d.Text[sp.Start.Offset:sp.End.Offset])
}

// yaml11Reading says how YAML 1.1 reads a plain scalar that YAML 1.2 read as n, and
// whether that differs.
func yaml11Reading(raw string, n *Node) (string, bool) {
	switch {
	case yaml11Null().MatchString(raw):
		return "null", n.Kind != Null
	case yaml11Bool().MatchString(raw):
		b := strings.ContainsAny(raw[:1], "yYtT") || raw == "on" || raw == "On" || raw == "ON"
		return strconv.FormatBool(b), n.Kind != Bool || n.Bool != b
	case yaml11Time().MatchString(raw):
		return "a timestamp", true // 1.2 core has no timestamps: dws keeps the string
	case yaml11Int().MatchString(raw):
		v, ok := yaml11IntValue(raw)
		if !ok {
			return "an integer", true
		}
		return v, n.Kind != Number || n.Text != v
	case yaml11Float().MatchString(raw):
		if n.Kind != Number {
			return "a float", true
		}
		return "a float", false // the 1.2 reading of a 1.1 float is the same number
	}
	if n.Kind == String {
		return "", false
	}
	return strconv.Quote(raw), true // a 1.2 number such as 1e3 or 0o17 is a string in 1.1
}

// yaml11IntValue is the decimal value of a YAML 1.1 integer.
func yaml11IntValue(raw string) (string, bool) {
	s := strings.ReplaceAll(raw, "_", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	var v int64
	var err error
	switch {
	case strings.Contains(s, ":"):
		for _, part := range strings.Split(s, ":") {
			p, perr := strconv.ParseInt(part, 10, 64)
			if perr != nil {
				return "", false
			}
			v = v*60 + p
		}
	case strings.HasPrefix(s, "0b"):
		v, err = strconv.ParseInt(s[2:], 2, 64)
	case strings.HasPrefix(s, "0x"):
		v, err = strconv.ParseInt(s[2:], 16, 64)
	case len(s) > 1 && s[0] == '0':
		v, err = strconv.ParseInt(s[1:], 8, 64)
	default:
		v, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil {
		return "", false
	}
	if neg {
		v = -v
	}
	return strconv.FormatInt(v, 10), true
}
