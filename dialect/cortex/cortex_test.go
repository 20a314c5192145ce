package cortex

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

func parse(t *testing.T, name, text string) *source.Document {
	t.Helper()
	doc, err := source.Parse(name, []byte(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// Decode reads onSuccess/onFailure tolerantly: null or absent ends the run, a string
// names the next step, anything else is no edge (the schema stage reports it).
func TestDecodeEdges(t *testing.T) {
	steps := decode(parse(t, "w.json", `{"schemaVersion": "1.0", "steps": [
		{"id": "a", "type": "sleep", "onSuccess": "b", "onFailure": null},
		{"id": "b", "type": "sleep", "onSuccess": 7},
		{"type": "sleep"}
	]}`))
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	a, b, c := steps[0], steps[1], steps[2]
	if a.onSuccess.target != "b" || a.onSuccess.ends || !a.onFailure.ends || a.onFailure.ptr != "/steps/0/onFailure" {
		t.Errorf("a = %+v", a)
	}
	if b.onSuccess.target != "" || b.onSuccess.ends || !b.onFailure.ends {
		t.Errorf("a malformed onSuccess is no edge and no end: %+v", b)
	}
	if c.hasID {
		t.Error("a step without id has none")
	}
}

// The step graph: entry steps[0], an exit wherever an edge is null or absent, no graph
// when the first step has no id.
func TestBuild(t *testing.T) {
	g, ok := build(decode(parse(t, "w.yaml", `schemaVersion: "1.0"
steps:
  - { id: check, type: branch, params: { expression: "true" }, onSuccess: pay, onFailure: stop }
  - { id: pay, type: sleep, params: { seconds: 1 }, onSuccess: null, onFailure: stop }
  - { id: stop, type: sleep, params: { seconds: 1 } }
`)))
	if !ok {
		t.Fatal("no graph")
	}
	var exits []string
	for _, n := range g.Nodes {
		if n.Exit {
			exits = append(exits, n.ID)
		}
	}
	if !slices.Equal(exits, []string{"pay", "stop"}) {
		t.Errorf("exits = %v; want [pay stop]", exits)
	}
	kinds := map[graph.EdgeKind]int{}
	for _, e := range g.Edges {
		kinds[e.Kind]++
	}
	if kinds[graph.Success] != 1 || kinds[graph.Failure] != 2 {
		t.Errorf("edge kinds = %v", kinds)
	}
	if _, ok := build(decode(parse(t, "w.json", `{"steps": [{"type": "sleep"}]}`))); ok {
		t.Error("a first step without id has no entry to judge from")
	}
}

// The cortex: section is parsed from positioned nodes; a problem names the key and
// points at the value.
func TestParseSettings(t *testing.T) {
	doc := parse(t, "c.yaml", "cortex:\n  context: [expenseId, 2bad]\n")
	_, err := parseSettings(doc.Root.Get("cortex"), t.TempDir())
	var ce *lint.ConfigError
	if !errors.As(err, &ce) || ce.Line != 2 || ce.Column != 24 || ce.Msg != `cortex.context: "2bad" is not a variable name` {
		t.Fatalf("got %#v", err)
	}
	doc = parse(t, "c.yaml", "cortex:\n  context: [expenseId]\n")
	s, err := parseSettings(doc.Root.Get("cortex"), t.TempDir())
	if err != nil || !slices.Equal(s.(*Settings).Context, []string{"expenseId"}) {
		t.Fatalf("got %v, %v", s, err)
	}
}

// TestVersionLenIsPattern holds versionLen to the patterns it stands for, on strings
// built from the characters that matter.
func TestVersionLenIsPattern(t *testing.T) {
	pats := []struct {
		lead   string
		major  bool
		prefix *regexp.Regexp
	}{
		{"v", true, regexp.MustCompile(`^v\d+\.\d+`)},
		{"1.", false, regexp.MustCompile(`^1\.\d+`)},
	}
	alphabet := []string{"v", "1", "0", "9", ".", "-", "a", "٣", " "}
	var inputs []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		inputs = append(inputs, s)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(s+c, n-1)
		}
	}
	grow("", 5)
	for _, p := range pats {
		for _, s := range inputs {
			want := -1
			if loc := p.prefix.FindStringIndex(s); loc != nil {
				want = loc[1]
			}
			if got := versionLen(s, p.lead, p.major); got != want {
				t.Fatalf("versionLen(%q, %q) = %d, the pattern %s matches %d bytes", s, p.lead, got, p.prefix, want)
			}
		}
	}
}

// TestIsIdempotencyKey holds the header-name test to its definition: the name without
// '-' and '_', folded as strings.EqualFold folds, is idempotencykey.
func TestIsIdempotencyKey(t *testing.T) {
	def := func(name string) bool {
		return strings.EqualFold(strings.NewReplacer("-", "", "_", "").Replace(name), "idempotencykey")
	}
	names := []string{"idempotencyKey", "Idempotency-Key", "IDEMPOTENCY_KEY", "idempotency--key_", "-idempotencykey",
		"idempotency key", "idempotencyKeys", "idempotencyKe", "", "x-idempotency-key", "idempotency\u212aey", // a Kelvin sign for the k
		"ıdempotencykey", "İdempotencykey", "idempotency\u00adkey"}
	for _, n := range names {
		if got, want := isIdempotencyKey(n), def(n); got != want {
			t.Errorf("isIdempotencyKey(%q) = %v, want %v", n, got, want)
		}
	}
	if !isIdempotencyKey("Idempotency-Key") || isIdempotencyKey("Idempotency-Keys") {
		t.Error("the common spellings are judged wrongly")
	}
}

// loadSettings is the cortex: section parsed and loaded, as LoadConfig does.
func loadSettings(n *source.Node, dir string) (any, error) {
	s, err := parseSettings(n, dir)
	if err != nil {
		return nil, err
	}
	return s, s.(lint.SectionLoader).Load()
}

// A registry schema may leave out required (it then requires nothing, as JSON Schema
// says): the registry loads and its properties are optional. A required that is not a
// list of names is a positioned configuration error, never a crash.
func TestRegistryRequired(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "reg.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := parse(t, "c.yaml", "cortex:\n  prompt_templates: reg.yaml\n")
	write("templates:\n  t: { purpose: score, schema: s }\nschemas:\n  s:\n    type: object\n    properties:\n      score: { type: number, minimum: 0 }\n")
	s, err := loadSettings(doc.Root.Get("cortex"), dir)
	if err != nil {
		t.Fatalf("a schema without required: %v", err)
	}
	props := s.(*Settings).Registry.Properties["s"]
	if len(props) != 1 || props[0].Name != "score" || props[0].Required || props[0].Minimum != "0" {
		t.Errorf("properties = %+v", props)
	}
	for _, bad := range []string{"required: score", "required: [1]"} {
		write("schemas:\n  s:\n    type: object\n    " + bad + "\n    properties:\n      score: { type: number }\n")
		_, err := loadSettings(doc.Root.Get("cortex"), dir)
		var ce *lint.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Msg, `reg.yaml:4: schema "s": required must be a list of property names`) {
			t.Errorf("%s: got %v", bad, err)
		}
	}
}
