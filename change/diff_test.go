package change

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
)

// unit builds a unit from lines "id type [reads=a,b] [makes=c] [field=value]" and edges
// "from label>to"; every node is persisted.
func unit(version string, scheme Scheme, text string) *Unit {
	u := &Unit{Kind: "test", Name: "flow", Version: version, Scheme: scheme, Path: "f.json"}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if strings.Contains(f[1], ">") {
			label, to, _ := strings.Cut(f[1], ">")
			u.Edges = append(u.Edges, Edge{From: f[0], To: to, Label: label})
			continue
		}
		n := Node{ID: f[0], Type: f[1], Persist: true}
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "reads":
				n.Reads = strings.Split(v, ",")
			case "makes":
				n.Produces = strings.Split(v, ",")
			case "desc":
				n.Fields = append(n.Fields, Field{Path: "/description", Value: v, Class: CosmeticField})
			case "retries":
				n.Fields = append(n.Fields, Field{Path: "/retries", Value: v, Class: LimitField})
			default:
				n.Fields = append(n.Fields, Field{Path: "/" + k, Value: v})
			}
		}
		if u.Entry == "" {
			u.Entry = n.ID
		}
		u.Nodes = append(u.Nodes, n)
	}
	return u
}

func changes(d UnitDiff) string {
	var out []string
	for _, c := range d.Changes {
		s := fmt.Sprintf("%s %s %s %s", c.Class, c.Kind, c.Node, c.Where)
		out = append(out, strings.TrimSpace(s))
	}
	return strings.Join(out, "\n")
}

func inFlight(d UnitDiff) string {
	var out []string
	for _, p := range d.InFlight {
		out = append(out, p.Node+" "+p.Verdict)
	}
	return strings.Join(out, "\n")
}

const base = `
a script model=x makes=plan
b ai reads=plan desc=first
c sql retries=3
a ok>b
b ok>c
`

func TestDiffKinds(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		renames        []Rename
		want           string
		class          Class
	}{
		{"unchanged", base, base, nil, "", NoChange},
		{"cosmetic", base, strings.Replace(base, "desc=first", "desc=second", 1), nil,
			"cosmetic field-changed b /description", Cosmetic},
		{"feature field", base, strings.Replace(base, "model=x", "model=y", 1), nil,
			"feature field-changed a /model", Feature},
		{"limit loosened", base, strings.Replace(base, "retries=3", "retries=5", 1), nil,
			"feature field-changed c /retries", Feature},
		{"limit tightened", base, strings.Replace(base, "retries=3", "retries=1", 1), nil,
			"breaking field-changed c /retries", Breaking},
		{"node added at the end", base, base + "d script\nc ok>d\n", nil,
			"feature node-added d\nfeature edge-added c ok", Feature},
		{"node removed", base, "a script model=x makes=plan\nb ai reads=plan desc=first\na ok>b\n", nil,
			"breaking node-removed c\nbreaking edge-removed b ok c", Breaking},
		{"type changed", base, strings.Replace(base, "c sql", "c http", 1), nil,
			"breaking node-type-changed c", Breaking},
		{"retargeted", base + "d sql\n", strings.Replace(base, "b ok>c", "b ok>d", 1) + "d sql\n", nil,
			"breaking edge-retargeted b ok", Breaking},
		{"entry", base, "c sql retries=3\na script model=x makes=plan\nb ai reads=plan desc=first\na ok>b\nb ok>c\n", nil,
			"breaking entry-changed", Breaking},
		{"renamed node", base, strings.ReplaceAll(base, "c sql", "z sql") + "", []Rename{{Unit: "test:flow", From: "c", To: "z"}},
			"", Breaking}, // the edge b ok>c still names c in this NEW: retargeted
		{"read unproduced", base, strings.Replace(base, "makes=plan", "", 1), nil,
			"breaking read-unproduced b plan", Breaking},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Diff([]*Unit{unit("1.0.0", Semver, tc.old)}, []*Unit{unit("1.0.0", Semver, tc.new)}, tc.renames, sim.Options{})
			if len(rep.Units) != 1 {
				t.Fatalf("%d units", len(rep.Units))
			}
			d := rep.Units[0]
			if tc.want != "" && changes(d) != tc.want {
				t.Errorf("changes:\n%s\nwant:\n%s", changes(d), tc.want)
			}
			if d.Class != tc.class {
				t.Errorf("class %s, want %s", d.Class, tc.class)
			}
		})
	}
}

// A declared node rename pairs the node: no removal, no addition, one cosmetic change.
func TestDiffRename(t *testing.T) {
	nw := strings.ReplaceAll(base, "c sql", "z sql")
	nw = strings.Replace(nw, "b ok>c", "b ok>z", 1)
	rep := Diff([]*Unit{unit("1.0.0", Semver, base)}, []*Unit{unit("1.0.1", Semver, nw)},
		[]Rename{{Unit: "test:flow", From: "c", To: "z"}}, sim.Options{})
	d := rep.Units[0]
	if got := changes(d); got != "cosmetic node-renamed z" {
		t.Fatalf("changes:\n%s", got)
	}
	if d.Verdict == nil || d.Verdict.Rule != "" {
		t.Fatalf("verdict %+v", d.Verdict)
	}
	if got := inFlight(d); got != "a continues\nb continues\nc continues" {
		t.Fatalf("in flight:\n%s", got)
	}
	// Without the declaration the same files are a removal and an addition.
	rep = Diff([]*Unit{unit("1.0.0", Semver, base)}, []*Unit{unit("1.0.1", Semver, nw)}, nil, sim.Options{})
	if got := changes(rep.Units[0]); !strings.Contains(got, "node-removed c") || !strings.Contains(got, "node-added z") {
		t.Fatalf("changes:\n%s", got)
	}
}

// Units are paired by id after the declared unit renames; the rest are added or removed.
func TestDiffUnits(t *testing.T) {
	a, b := unit("1.0.0", Semver, base), unit("1.0.0", Semver, base)
	b.Name = "renamed"
	rep := Diff([]*Unit{a}, []*Unit{b}, []Rename{{From: "test:flow", To: "test:renamed"}}, sim.Options{})
	if len(rep.Units) != 1 || len(rep.Units[0].Changes) != 0 {
		t.Fatalf("renamed unit: %+v", rep.Units)
	}
	rep = Diff([]*Unit{a}, []*Unit{b}, nil, sim.Options{})
	if len(rep.Units) != 2 || rep.Units[0].Changes[0].Kind != UnitRemoved || rep.Units[1].Changes[0].Kind != UnitAdded {
		t.Fatalf("unpaired units: %+v", rep.Units)
	}
	c := unit("1.0.0", Semver, base)
	rep = Diff(nil, []*Unit{b, c, c}, nil, sim.Options{})
	if len(rep.Problems) != 1 {
		t.Fatalf("a unit defined twice: %v", rep.Problems)
	}
	// A unit rename onto a unit OLD still has makes two OLD units one: the problem
	// names the rename. Before, it said only "test:renamed is defined twice".
	rep = Diff([]*Unit{a, b}, []*Unit{b}, []Rename{{From: "test:flow", To: "test:renamed"}}, sim.Options{})
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Message, "renames: makes test:renamed of both test:flow") {
		t.Fatalf("a rename onto a unit OLD has: %v", rep.Problems)
	}
}

func TestVersionVerdicts(t *testing.T) {
	feature := strings.Replace(base, "model=x", "model=y", 1)
	breaking := strings.Replace(base, "c sql", "c http", 1)
	cosmetic := strings.Replace(base, "desc=first", "desc=second", 1)
	for _, tc := range []struct {
		scheme           Scheme
		old, new, change string
		rule             string
	}{
		{Semver, "1.0.0", "1.0.0", base, ""},
		{Semver, "1.0.0", "1.0.0", cosmetic, "version-not-bumped"},
		{Semver, "1.0.0", "1.0.1", cosmetic, ""},
		{Semver, "1.0.0", "1.0.1", feature, "version-bump-too-small"},
		{Semver, "1.0.0", "1.1.0", feature, ""},
		{Semver, "1.4.2", "1.5.0", breaking, "version-bump-too-small"},
		{Semver, "1.4.2", "2.0.0", breaking, ""},
		{Semver, "0.4.2", "0.5.0", breaking, ""}, // below 1.0 breaking needs MINOR
		{Semver, "0.4.2", "0.4.3", breaking, "version-bump-too-small"},
		{Semver, "1.4.2", "1.4.1", base, "version-decreased"},
		{Semver, "2.0.0", "1.9.9", feature, "version-decreased"},
		{Cortex, "v1.4", "v1.4", cosmetic, "version-not-bumped"},
		{Cortex, "v1.4", "v1.5", cosmetic, ""}, // Cortex has no patch level
		{Cortex, "v1.4", "v1.5", breaking, "version-bump-too-small"},
		{Cortex, "v1.4", "v2.0", breaking, ""},
		{Cortex, "v0.4", "v0.5", breaking, ""},
		{Integer, "1", "1", feature, "version-not-bumped"},
		{Integer, "1", "2", breaking, ""},
		{Integer, "3", "2", base, "version-decreased"},
	} {
		rep := Diff([]*Unit{unit(tc.old, tc.scheme, base)}, []*Unit{unit(tc.new, tc.scheme, tc.change)}, nil, sim.Options{})
		v := rep.Units[0].Verdict
		if v == nil {
			t.Fatalf("%s → %s: no verdict (%s)", tc.old, tc.new, rep.Units[0].VersionNote)
		}
		if v.Rule != tc.rule {
			t.Errorf("%v %s → %s (%s): %q, want %q (%s)", tc.scheme, tc.old, tc.new, rep.Units[0].Class, v.Rule, tc.rule, v.Message)
		}
	}
	// A version that cannot be read is said, not judged.
	rep := Diff([]*Unit{unit("v1", Cortex, base)}, []*Unit{unit("v1.1", Cortex, base)}, nil, sim.Options{})
	if rep.Units[0].Verdict != nil || !strings.Contains(rep.Units[0].VersionNote, `"v1"`) {
		t.Fatalf("unreadable version: %+v %q", rep.Units[0].Verdict, rep.Units[0].VersionNote)
	}
}

// Each in-flight verdict, from the position a run is persisted at.
func TestInFlight(t *testing.T) {
	const old = `
a script makes=plan
b ai
c sql
d sql
a ok>b
b ok>c
c ok>d
`
	for _, tc := range []struct {
		name, new string
		want      string
	}{
		{"downstream change", strings.Replace(old, "d sql", "d sql stmt=2", 1),
			"a continues-changed\nb continues-changed\nc continues-changed\nd continues-changed"},
		{"removed node", strings.Replace(strings.Replace(old, "b ok>c\n", "b ok>d\n", 1), "c sql\n", "", 1),
			"a continues-changed\nb continues-changed\nc needs-mapping\nd continues"},
		{"type changed", strings.Replace(old, "c sql", "c http", 1),
			"a continues-changed\nb continues-changed\nc incompatible\nd continues"},
		// d now reads plan: a run past a produced it, so it continues; but c's new
		// read of what only the new step x makes (before c, not run by runs paused
		// at c or later) makes runs paused at c incompatible.
		{"read not produced", strings.Replace(strings.Replace(old, "c sql", "c sql reads=extra", 1), "b ok>c", "b ok>x\nx ai makes=extra\nx ok>c", 1),
			"a continues-changed\nb continues-changed\nc incompatible\nd continues"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Diff([]*Unit{unit("1", Integer, old)}, []*Unit{unit("2", Integer, tc.new)}, nil, sim.Options{})
			if got := inFlight(rep.Units[0]); got != tc.want {
				t.Errorf("in flight:\n%s\nwant:\n%s\n%+v", got, tc.want, rep.Units[0].InFlight)
			}
		})
	}
}

// Fingerprints name what changed, not where: the same change at another line has the
// same fingerprint, another change another one.
func TestFingerprint(t *testing.T) {
	a := Fingerprint("cortex:x", FieldChanged, "n", "/params/sql")
	if a != Fingerprint("cortex:x", FieldChanged, "n", "/params/sql") || len(a) != 16 {
		t.Fatal(a)
	}
	if a == Fingerprint("cortex:x", FieldChanged, "n", "/params/url") || a == Fingerprint("cortex:y", FieldChanged, "n", "/params/sql") {
		t.Fatal("fingerprints collide")
	}
}

// longChain is n nodes in a line, each reading what the one before it makes; NEW
// changes the first and, with drop, stops node n/2 making what n/2+1 reads.
func longChain(n int, drop bool) (old, nw *Unit) {
	var o, w strings.Builder
	for i := range n {
		line := fmt.Sprintf("n%05d ai makes=o%05d", i, i)
		if i > 0 {
			line += fmt.Sprintf(" reads=o%05d", i-1)
		}
		fmt.Fprintln(&o, line)
		switch {
		case i == 0:
			line += " model=y"
		case drop && i == n/2:
			line = strings.Replace(line, fmt.Sprintf("makes=o%05d", i), "makes=other", 1)
		}
		fmt.Fprintln(&w, line)
	}
	for i := range n - 1 {
		fmt.Fprintf(&o, "n%05d ok>n%05d\n", i, i+1)
		fmt.Fprintf(&w, "n%05d ok>n%05d\n", i, i+1)
	}
	return unit("1", Integer, o.String()), unit("2", Integer, w.String())
}

// On a long line of steps each reading the one before, a run paused at or before the
// step that stopped making its output is incompatible (the next step would read what
// nothing made), and one paused after it continues with changed behaviour.
func TestInFlightLongChain(t *testing.T) {
	old, nw := longChain(400, true)
	rep := Diff([]*Unit{old}, []*Unit{nw}, nil, sim.Options{})
	for i, p := range rep.Units[0].InFlight {
		want := "incompatible"
		if i > 200 {
			want = "continues"
		}
		if p.Verdict != want {
			t.Fatalf("%s: %s (%s), want %s", p.Node, p.Verdict, p.Why, want)
		}
	}
}

// BenchmarkDiffLongChain is the in-flight verdicts of a 3,000-step definition whose
// every step reads the one before: each verdict asks which step reaches which, for
// every position and reader (before, a walk per question: minutes).
func BenchmarkDiffLongChain(b *testing.B) {
	old, nw := longChain(3000, false)
	for b.Loop() {
		Diff([]*Unit{old}, []*Unit{nw}, nil, sim.Options{})
	}
}

// A node rename to an id OLD itself still has would make two OLD nodes one: the
// rename is a problem at the colliding node (duplicate-id) and is not applied. Before,
// both were paired with NEW's node and the report showed "entry: a → a" and edges from
// a node to itself. A swap (b to c, c to b) is no collision.
func TestDiffRenameCollides(t *testing.T) {
	rep := Diff([]*Unit{unit("1.0.0", Semver, base)}, []*Unit{unit("1.0.0", Semver, base)},
		[]Rename{{Unit: "test:flow", From: "a", To: "b"}}, sim.Options{})
	if len(rep.Problems) != 1 || rep.Problems[0].Rule != "duplicate-id" ||
		rep.Problems[0].Message != `renames: a → b in test:flow collides with OLD's own node b (rename that one too, or drop the entry); not applied` {
		t.Fatalf("problems %+v", rep.Problems)
	}
	if got := changes(rep.Units[0]); got != "" {
		t.Fatalf("changes of a rename not applied:\n%s", got)
	}
	swapped := strings.NewReplacer("b ", "c ", "c ", "b ", ">b", ">c", ">c", ">b").Replace(base)
	rep = Diff([]*Unit{unit("1.0.0", Semver, base)}, []*Unit{unit("1.0.0", Semver, swapped)},
		[]Rename{{Unit: "test:flow", From: "b", To: "c"}, {Unit: "test:flow", From: "c", To: "b"}}, sim.Options{})
	if len(rep.Problems) != 0 {
		t.Fatalf("a swap: problems %+v", rep.Problems)
	}
}

// A run paused at the first step of a review loop may be on its first pass: nothing
// has been produced yet, whatever the loop makes on later passes. When that step
// stops making what the reviewer reads, such a run cannot go on. Before, the step's
// own output from an earlier pass counted as made, and the verdict was "continues
// with changed behaviour".
func TestInFlightLoopEntry(t *testing.T) {
	const old = `
a script makes=plan
b ai reads=plan
c sql
a ok>b
b reject>a
b ok>c
`
	nw := strings.Replace(old, "a script makes=plan", "a script makes=notes code=2", 1)
	rep := Diff([]*Unit{unit("1", Integer, old)}, []*Unit{unit("2", Integer, nw)}, nil, sim.Options{})
	if got, want := inFlight(rep.Units[0]), "a incompatible\nb continues-changed\nc continues"; got != want {
		t.Errorf("in flight:\n%s\nwant:\n%s\n%+v", got, want, rep.Units[0].InFlight)
	}
}
