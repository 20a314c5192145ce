package source

import (
	"bytes"
	"fmt"
	"strconv"
)

// yamlDirectives returns the text the YAML parser is given: d.Text, except for the
// directives YAML 1.2 asks a reader to take that yaml.v4 refuses. yaml.v4 accepts
// only "%YAML 1.1" and "%TAG"; YAML 1.2 (spec 6.8.1) wants "%YAML 1.2" accepted,
// a later 1.x read as 1.2 (the spec says with a warning; dws has no warnings at parse
// time, and reads the document as YAML 1.2 either way), a 2.x refused, and a reserved
// directive (%FOO) ignored. So a "%YAML 1.x" line is handed over as "%YAML 1.1" (the
// version only chooses whether yaml.v4 goes on: it reads every document the same way)
// and a reserved directive as a comment. Every change keeps the length of the line,
// so every position the parser reports is one in d.Text.
//
// Directives stand at the start of a line, in the stream's prologue or after a
// document end marker (...), before the document's "---"; there, and only there, a
// line starting with '%' is a directive (a plain scalar cannot start with '%').
func yamlDirectives(d *Document) ([]byte, *Error) {
	text := []byte(d.Text) // the parser reads bytes: its own copy
	start := bomLen(text)
	first := start < len(text) && text[start] == '%'
	if !first && !bytes.Contains(text, []byte("\n%")) && !bytes.Contains(text, []byte("\r%")) {
		return text, nil // no line starts with '%': nothing to do (the common case)
	}
	out := text
	own := false // out is a copy that may be written
	prologue := true
	directives := false // the current prologue holds a directive
	last := 0           // where the last directive starts
	for i := start; i < len(text); {
		end := i
		for end < len(text) && text[end] != '\n' && text[end] != '\r' {
			end++
		}
		line := text[i:end]
		next := end
		if next < len(text) && text[next] == '\r' {
			next++
		}
		if next < len(text) && text[next] == '\n' {
			next++
		}
		switch {
		case !prologue:
			if docMarker(line, "...") {
				prologue, directives = true, false
			}
		case len(line) > 0 && line[0] == '%':
			directives, last = true, i
			name, rest := directiveName(line[1:])
			switch name {
			case "TAG":
			case "YAML":
				major, minor, at, ok := versionDirective(rest)
				if !ok {
					break // malformed: the parser says so
				}
				at += i + 1 + len(name)
				if major != "1" {
					return nil, d.errorAt(at, fmt.Sprintf("YAML %s.%s is not supported (dws reads YAML 1.2)", major, minor))
				}
				if minor != "1" {
					if !own {
						out, own = bytes.Clone(text), true
					}
					m := at + len(major) + 1
					out[m] = '1'
					for k := 1; k < len(minor); k++ {
						out[m+k] = ' '
					}
				}
			case "":
				// "%" alone or "% x": not a directive name; the parser says so.
			default:
				// A reserved directive: YAML 1.2 ignores it.
				if !own {
					out, own = bytes.Clone(text), true
				}
				out[i] = '#'
			}
		case blankOrComment(line):
		default:
			prologue = false
			if directives && !docMarker(line, "---") {
				return nil, d.errorAt(i, "a directive must be followed by a document start marker (---)")
			}
		}
		i = next
	}
	if prologue && directives {
		return nil, d.errorAt(last, "a directive must be followed by a document start marker (---), and none follows")
	}
	return out, nil
}

// docMarker reports whether line (or the text from a line's start) begins with the
// document marker m ("---" or "..."), alone or followed by white space.
func docMarker(line []byte, m string) bool {
	if !bytes.HasPrefix(line, []byte(m)) {
		return false
	}
	return len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\n' || line[3] == '\r'
}

func blankOrComment(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t':
		case '#':
			return true
		default:
			return false
		}
	}
	return true
}

// directiveName splits a directive line after its '%' into its name and the rest.
func directiveName(s []byte) (string, []byte) {
	n := 0
	for n < len(s) && s[n] != ' ' && s[n] != '\t' {
		n++
	}
	return string(s[:n]), s[n:]
}

// versionDirective reads the " 1.2" after %YAML: the digits of the version and the
// offset of its first digit in s.
func versionDirective(s []byte) (major, minor string, at int, ok bool) {
	for at < len(s) && (s[at] == ' ' || s[at] == '\t') {
		at++
	}
	if at == 0 {
		return "", "", 0, false
	}
	digits := func(k int) int {
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		return k
	}
	dot := digits(at)
	if dot == at || dot >= len(s) || s[dot] != '.' {
		return "", "", 0, false
	}
	end := digits(dot + 1)
	if end == dot+1 || end < len(s) && s[end] != ' ' && s[end] != '\t' {
		return "", "", 0, false
	}
	major, minor = string(s[at:dot]), string(s[dot+1:end])
	if _, err := strconv.Atoi(major); err != nil {
		return "", "", 0, false
	}
	return major, minor, at, true
}
