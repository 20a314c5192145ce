package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFastPathAgrees: the fast path must accept exactly the documents the full schema
// accepts. Seeds are valid documents of the dialects that have dispatch points; each is
// mutated many times (keys dropped, values retyped, the discriminator changed, unknown
// keys added) and both validators must give the same verdict on every mutant.
func TestFastPathAgrees(t *testing.T) {
	seeds := map[string][]string{
		"cortex":       {"testdata/expense.json", "testdata/hello.json"},
		"dws-workflow": append(globOrFail(t, "../fixtures/dws/err/*.json"), globOrFail(t, "../fixtures/dws/ok/*/workflows/*.json")...),
	}
	for id, files := range seeds {
		d := registry.byID[id]
		if _, err := d.compiled(); err != nil {
			t.Fatal(err)
		}
		p, err := planFastPath(d)
		if err != nil || p == nil {
			t.Fatalf("%s: no fast path was planned (%v)", id, err)
		}
		fv, err := p.compile(d)
		if err != nil {
			t.Fatal(err)
		}
		valid, mutants := 0, 0
		for _, f := range files {
			seed := readJSON(t, f)
			if id == "dws-workflow" && seed.(map[string]any)["phases"] == nil {
				continue // another DWS dialect's fixture
			}
			r := rand.New(rand.NewPCG(uint64(len(f)), 7))
			for i := range 400 {
				v := seed
				if i > 0 {
					v = mutate(r, deepCopy(seed), 1+r.IntN(3))
				}
				full := d.sch.Validate(v) == nil
				if got := fv.valid(v); got != full {
					b, _ := json.Marshal(v)
					t.Fatalf("%s: fast path says valid=%v, full schema valid=%v for\n%s", id, got, full, b)
				}
				if full {
					valid++
				}
				mutants++
			}
		}
		if valid == 0 || valid == mutants {
			t.Errorf("%s: %d of %d documents valid: the mutations test nothing", id, valid, mutants)
		}
		t.Logf("%s: %d documents, %d valid, verdicts agree", id, mutants, valid)
	}
}

func globOrFail(t *testing.T, pattern string) []string {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no seeds match %s", pattern)
	}
	return files
}

func readJSON(t *testing.T, path string) any {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

var discriminators = []string{"sql", "http", "script", "ai", "branch", "sleep",
	"sequential", "conditional", "parallel", "loop", "handoff", "delegation", "nope"}

// mutate changes n random places of v.
func mutate(r *rand.Rand, v any, n int) any {
	for range n {
		var objs []map[string]any
		var walk func(any)
		walk = func(x any) {
			switch y := x.(type) {
			case map[string]any:
				objs = append(objs, y)
				for _, e := range y {
					walk(e)
				}
			case []any:
				for _, e := range y {
					walk(e)
				}
			}
		}
		walk(v)
		if len(objs) == 0 {
			return v
		}
		o := objs[r.IntN(len(objs))]
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			o["added"] = "x"
			continue
		}
		slices.Sort(keys)
		k := keys[r.IntN(len(keys))]
		switch r.IntN(5) {
		case 0:
			delete(o, k)
		case 1:
			o[k] = json.Number("7")
		case 2:
			o[k] = "text"
		case 3:
			if _, ok := o["type"]; ok {
				o["type"] = discriminators[r.IntN(len(discriminators))]
			} else {
				o["unknownKey"] = true
			}
		case 4:
			o[k] = map[string]any{}
		}
	}
	return v
}

// TestFastPathWhenItPays: one small document is validated with the full schema only (the
// fast path would cost more to build than it saves); a run with hundreds of steps builds
// it, and still gives the same failures for a broken document.
func TestFastPathWhenItPays(t *testing.T) {
	src := registry.byID["cortex"]
	d := &dialect{id: src.id, url: src.url, src: src.src}
	if _, err := d.compiled(); err != nil {
		t.Fatal(err)
	}
	small := readJSON(t, "testdata/hello.json")
	if d.fast.validator(small) != nil || d.fast.fv != nil {
		t.Fatal("the fast path was built for one small document")
	}
	big := deepCopy(small).(map[string]any)
	step := big["steps"].([]any)[0]
	var steps []any
	for i := range 300 {
		s := deepCopy(step).(map[string]any)
		s["id"] = fmt.Sprintf("step-%03d", i)
		steps = append(steps, s)
	}
	big["steps"] = steps
	if d.fast.validator(big) == nil {
		t.Fatal("no fast path after 300 steps")
	}
	steps[150].(map[string]any)["params"] = map[string]any{}
	fs, err := validateWith(d, big)
	if err != nil || len(fs) != 1 || fs[0].Pointer != "/steps/150/params" {
		t.Fatalf("broken step 150: got %v, %v", fs, err)
	}
}
