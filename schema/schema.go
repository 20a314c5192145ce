// Package schema holds the embedded JSON Schemas (draft 2020-12) of the dws dialects,
// compiles each one once, and turns validation errors into plain-words failures.
//
// A parsed document (ValidateNode) is first judged by a verdict compiled from the
// schema's text into Go closures (verdict.go); jsonschema v5 compiles the schema,
// validates and explains only when the verdict does not accept.
//
// It knows schemas and nothing else: not files, not source positions (a parsed document is
// read for its values only), not how a dialect is detected, not rules. Everything is embedded and the compiler refuses to load any URL that
// is not one of the embedded schemas (the draft metaschemas ship inside the library), so
// validation never reaches the network or the file system.
//
// Adding a dialect is dropping a file named <dialect>.schema.json into this directory whose
// $id is https://dws.dev/schema/<dialect>.json; nothing else changes.
package schema

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/dwsdev/dws/source"
)

//go:embed *.schema.json
var files embed.FS

const (
	fileSuffix = ".schema.json"
	urlPrefix  = "https://dws.dev/schema/"
	urlSuffix  = ".json"
)

// dialect is one embedded schema and its lazily compiled validator.
type dialect struct {
	id   string
	url  string
	src  func() []byte // read on first use: a start that validates nothing reads none
	once sync.Once
	sch  *jsonschema.Schema
	err  error
	// verdict accepts valid documents without jsonschema; nil when the schema uses
	// something it does not know (see verdict.go).
	verdict func() verdict
}

// registry maps dialect ids and schema URLs to the embedded schemas. It is built at package
// initialisation from the embedded directory listing, which costs no parsing and no copy.
var registry = func() struct {
	ids   []string
	byID  map[string]*dialect
	byURL map[string]*dialect
} {
	r := struct {
		ids   []string
		byID  map[string]*dialect
		byURL map[string]*dialect
	}{byID: map[string]*dialect{}, byURL: map[string]*dialect{}}
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(fmt.Sprintf("schema: listing embedded schemas: %v", err))
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, fileSuffix) {
			continue
		}
		id := strings.TrimSuffix(name, fileSuffix)
		d := &dialect{id: id, url: urlPrefix + id + urlSuffix}
		d.src = sync.OnceValue(func() []byte {
			src, err := files.ReadFile(name)
			if err != nil {
				panic(fmt.Sprintf("schema: reading embedded %s: %v", name, err))
			}
			return src
		})
		d.verdict = sync.OnceValue(func() verdict {
			vd, _ := compileVerdict(d.src(), d.url)
			return vd
		})
		r.ids = append(r.ids, id)
		r.byID[id] = d
		r.byURL[d.url] = d
	}
	sort.Strings(r.ids)
	return r
}()

// Documents are the embedded schemas of files that are not definitions: scenario is the
// scenario files of dws test.
var Documents = []string{"scenario"}

// Dialects returns the sorted ids of the dialects that have an embedded schema.
func Dialects() []string {
	var out []string
	for _, id := range registry.ids {
		if !slices.Contains(Documents, id) {
			out = append(out, id)
		}
	}
	return out
}

// Source returns the embedded schema text of a dialect (what `dws schema DIALECT` prints).
func Source(dialect string) ([]byte, bool) {
	d, ok := registry.byID[dialect]
	if !ok {
		return nil, false
	}
	return bytes.Clone(d.src()), true
}

// DialectForURL names the dialect whose schema a document's "$schema" points at, its
// $id, "https://dws.dev/schema/<dialect>.json". An empty fragment ("…/cortex.json#") is
// accepted.
func DialectForURL(url string) (string, bool) {
	d, ok := registry.byURL[strings.TrimSuffix(url, "#")]
	if !ok {
		return "", false
	}
	return d.id, true
}

// Validate checks v, a JSON data-model value (nil, bool, json.Number, string, []any,
// map[string]any: what encoding/json yields with UseNumber), against a dialect's schema and
// returns one Failure per failing leaf, sorted. The error is only for an unknown dialect,
// a broken embedded schema, or a v that is not a JSON data-model value.
func Validate(dialect string, v any) (fs []Failure, err error) {
	defer func() {
		// jsonschema v5 dereferences a nil *big.Rat for numbers math/big refuses to
		// parse; source rejects those first, and this keeps any other such trap an error.
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("schema: the %s schema could not validate this document: %v", dialect, r)
		}
	}()
	d, ok := registry.byID[dialect]
	if !ok {
		return nil, fmt.Errorf("schema: unknown dialect %q", dialect)
	}
	return validateWith(d, v)
}

// ValidateNode is Validate of root.Value(), for a parsed document: the verdict judges
// the document itself, and only a document it does not accept is turned into a value
// for jsonschema to validate and explain.
func ValidateNode(dialect string, root *source.Node) (fs []Failure, err error) {
	d, ok := registry.byID[dialect]
	if !ok {
		return nil, fmt.Errorf("schema: unknown dialect %q", dialect)
	}
	if vd := d.verdict(); vd != nil && vd(root) {
		return nil, nil
	}
	return Validate(dialect, root.Value())
}

func validateWith(d *dialect, v any) ([]Failure, error) {
	sch, err := d.compiled()
	if err != nil {
		return nil, err
	}
	err = sch.Validate(v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("schema: validating against the %s schema: %w", d.id, err)
	}
	docs, err := rawDocs()
	if err != nil {
		return nil, err
	}
	return failures(ve, v, docs), nil
}

// compiled compiles the dialect's schema on first use. The Compiler is not safe for
// concurrent use, so each compilation gets its own; the compiled Schema is.
func (d *dialect) compiled() (*jsonschema.Schema, error) {
	d.once.Do(func() {
		if err := checkID(d); err != nil {
			d.err = err
			return
		}
		sch, err := newCompiler().Compile(d.url)
		if err != nil {
			d.err = fmt.Errorf("schema: compiling the embedded %s schema: %w", d.id, err)
			return
		}
		d.sch = sch
	})
	return d.sch, d.err
}

// checkID makes a dropped-in schema file with a wrong $id fail loudly: the library would
// otherwise re-home the resource and report a confusing missing-fragment error.
func checkID(d *dialect) error {
	docs, err := rawDocs()
	if err != nil {
		return err
	}
	doc := docs[d.url]
	id, _ := doc.get("$id").str()
	if id != d.url {
		return fmt.Errorf("schema: the embedded %s%s has $id %q, want %q", d.id, fileSuffix, id, d.url)
	}
	return nil
}

// newCompiler returns a compiler that asserts formats and can load only embedded schemas.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	// Under 2020-12 format is an annotation unless asserted; dws wants it checked.
	c.AssertFormat = true
	c.LoadURL = loadEmbedded
	return c
}

// loadEmbedded serves the embedded schemas and refuses everything else. The draft
// metaschemas never reach it: the library resolves those itself.
func loadEmbedded(url string) (io.ReadCloser, error) {
	if d, ok := registry.byURL[strings.TrimSuffix(url, "#")]; ok {
		return io.NopCloser(bytes.NewReader(d.src())), nil
	}
	return nil, fmt.Errorf("schema: refusing to load %s: not an embedded schema (dws works offline)", url)
}

// rawDocs parses every embedded schema, keeping member order, so that messages can list
// allowed keys and enum values as the schema author wrote them.
var rawDocs = sync.OnceValues(func() (map[string]*node, error) {
	docs := make(map[string]*node, len(registry.byURL))
	for url, d := range registry.byURL {
		n, err := parseNode(d.src())
		if err != nil {
			return nil, fmt.Errorf("schema: parsing the embedded %s%s: %w", d.id, fileSuffix, err)
		}
		docs[url] = n
	}
	return docs, nil
})
