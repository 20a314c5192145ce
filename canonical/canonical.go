// Package canonical turns a document's JSON data model into its canonical
// bytes (RFC 8785, the JSON Canonicalization Scheme), and builds on those bytes
// the things that must not depend on how a file happens to be spelled: the
// sha256 checksum, the dws lockfile that records checksums, and Ed25519
// signatures.
//
// Documents arrive as the JSON data model exactly as encoding/json's
// Decoder.UseNumber yields it: nil, bool, json.Number, string, []any and
// map[string]any. Turning JSON or YAML text into that model (with positions)
// is the loader's job; this package knows nothing of dialects, rules or
// diagnostics, so a YAML file and its JSON twin have the same checksum.
//
// The top-level "signature" property of an object document is not part of the
// canonical bytes: a signature is computed over the canonical bytes and stored
// in that property, so signing a file never changes its checksum. A property
// called "signature" anywhere else is ordinary content.
package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dwsdev/dws/source"
	"github.com/gowebpki/jcs"
)

// SignatureProperty is the top-level property that holds a document's
// signature and is left out of its canonical bytes.
const SignatureProperty = "signature"

// maxDepth matches the nesting limit of gowebpki/jcs, checked before encoding
// so a hostile document fails fast with a path instead of deep in the encoder.
const maxDepth = 10000

// Bytes returns the RFC 8785 canonical bytes of doc without its top-level
// "signature" property.
//
// Numbers are canonicalised as IEEE-754 doubles, as RFC 8785 requires: 1.50,
// 15e-1 and 1.5 are the same number, and an integer beyond ±2^53 is rounded
// to the nearest double without complaint (the number-precision rule warns
// about those). A string or key that is not valid UTF-8, a number that is not
// finite, or nesting deeper than 10,000 levels is an error.
func Bytes(doc any) ([]byte, error) {
	if err := check(doc); err != nil {
		return nil, fmt.Errorf("canonicalising: %w", err)
	}
	doc = withoutSignature(doc)
	out, err := bytesOf(doc)
	if errors.Is(err, errFallback) {
		return viaJCS(doc)
	}
	if err != nil {
		return nil, fmt.Errorf("canonicalising: %w", err)
	}
	return out, nil
}

// viaJCS canonicalises a document of Go types the tree writer does not know: as JSON
// text through encoding/json, then jcs.Transform. It is also the tree writer's oracle
// in the tests.
func viaJCS(doc any) ([]byte, error) {
	// encoding/json writes json.Number verbatim (after checking its syntax),
	// so the exact decimal reaches jcs, which owns the number formatting.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("canonicalising: encoding JSON: %w", err)
	}
	out, err := jcs.Transform(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("canonicalising: %w", err)
	}
	return out, nil
}

// Signature returns the top-level "signature" property of doc, and whether
// doc has one that is a string.
func Signature(doc any) (string, bool) {
	m, ok := doc.(map[string]any)
	if !ok {
		return "", false
	}
	s, ok := m[SignatureProperty].(string)
	return s, ok
}

func withoutSignature(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	if _, has := m[SignatureProperty]; !has {
		return doc
	}
	// A shallow copy: the caller's document is not ours to modify.
	c := make(map[string]any, len(m)-1)
	for k, v := range m {
		if k != SignatureProperty {
			c[k] = v
		}
	}
	return c
}

// check rejects what encoding/json would otherwise paper over: it replaces
// invalid UTF-8 with U+FFFD, which would give two different documents the
// same checksum.
func check(doc any) error {
	if ce := checkValue(doc, 0); ce != nil {
		// The path was collected leaf first on the way back up.
		var b strings.Builder
		for i := len(ce.path) - 1; i >= 0; i-- {
			b.WriteByte('/')
			b.WriteString(source.EscapeToken(ce.path[i]))
		}
		at := b.String()
		if at == "" {
			at = "/"
		}
		return fmt.Errorf("at %q: %s", at, ce.msg)
	}
	return nil
}

type checkError struct {
	msg  string
	path []string
}

// checkValue builds no path strings unless something is wrong, so the walk
// costs next to nothing on a valid document.
func checkValue(v any, depth int) *checkError {
	if depth > maxDepth {
		return &checkError{msg: fmt.Sprintf("nesting deeper than %d levels", maxDepth)}
	}
	switch v := v.(type) {
	case string:
		if !utf8.ValidString(v) {
			return &checkError{msg: "string is not valid UTF-8"}
		}
	case []any:
		for i, e := range v {
			if ce := checkValue(e, depth+1); ce != nil {
				ce.path = append(ce.path, strconv.Itoa(i))
				return ce
			}
		}
	case map[string]any:
		for k, e := range v {
			if checkMember(k, e, depth) != nil {
				// Report the first bad member in key order, so the message
				// does not depend on map iteration order.
				keys := make([]string, 0, len(v))
				for k := range v {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if ce := checkMember(k, v[k], depth); ce != nil {
						return ce
					}
				}
			}
		}
	}
	return nil
}

func checkMember(k string, v any, depth int) *checkError {
	if !utf8.ValidString(k) {
		return &checkError{msg: fmt.Sprintf("property name %q is not valid UTF-8", k)}
	}
	if ce := checkValue(v, depth+1); ce != nil {
		ce.path = append(ce.path, k)
		return ce
	}
	return nil
}
