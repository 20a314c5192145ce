package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/sim"
)

// Emitting scenarios (dws simulate --emit-scenarios, SPEC §8.3): each covering path of
// a definition becomes a scenario that pins it, so that a team starts from full coverage
// and edits from there. A path's steps become stub answers, node by node in the order
// the run invokes them, as the dialect's Pin says (sim.Definition.Pin): an outcome a
// stub decides is its answer, perhaps for a choice point of the node's own (a loop
// after a phase); outcomes the definition decides (a branch, a conditional, routing, a
// join) are not stubbed: the path's witness context (dws simulate's) starts the run,
// and an answer carries the witness values a later choice reads. Every emitted
// scenario is run before it is written; a path it does not reproduce (one whose
// branches no single context takes) is not written, and is counted.

// Emitted is one scenario file to write.
type Emitted struct {
	// Name is the file name's stem (expense-3, review-plan_and_build-2): a Stems stem,
	// a dash and the path's number.
	Name string
	Text []byte
}

// Emit pins every covering path of def. defPath is the definition as the scenario names
// it (relative to where the scenario will be), stem names the files (Stems.Stem),
// checksum is the definition's canonical checksum. It returns the scenarios that
// reproduce their path, and how many paths none could pin. What is run to decide is the
// file as written, read back: a scenario that does not say what it was built to say is
// not written.
func Emit(def sim.Definition, defPath, stem, checksum string) ([]Emitted, int) {
	var out []Emitted
	failed := 0
	for k, p := range def.Result.Cover {
		sc := pin(def, p)
		sc.Definition, sc.Workflow, sc.Checksum = defPath, def.Workflow, checksum
		name := fmt.Sprintf("%s-%d", stem, k+1)
		text := sc.yaml(fmt.Sprintf("Path %d of %s: pinned by dws simulate --emit-scenarios.", k+1, defPath))
		if def.Play == nil || !reproduces(def, defPath, name, text) {
			failed++
			continue
		}
		out = append(out, Emitted{Name: name, Text: text})
	}
	return out, failed
}

// reproduces reads an emitted scenario back as dws test will and runs it: it must name
// the definition and workflow it was written for, and pass.
func reproduces(def sim.Definition, defPath, name string, text []byte) bool {
	back, ds := Parse(name+Suffixes[0], text)
	if len(ds) > 0 || back.Workflow != def.Workflow {
		return false
	}
	if named, _ := back.Doc.Root.Get("definition").Str(); named != defPath {
		return false
	}
	return back.Execute(def, Options{}).Passed
}

// Stems names the files of emitted scenarios: each definition (a file, and a workflow
// of it) gets a stem of its own, made of its file's base name and its workflow's id
// with every character but ASCII letters, digits, '-', '_' and '.' (not leading)
// replaced by '_', so a name can neither leave the directory nor hide in it. A stem
// another definition already has (compared without case, as macOS and Windows file
// systems do) is made unique: first by the definition's directory's name, then by a
// hash of its path and workflow. The stems given depend on the order definitions come
// in; dws simulate takes them sorted by path.
type Stems struct {
	used map[string]string // stem, lower case → the definition that has it
}

// maxStem keeps a file name (stem, -N, .scenario.yaml) under the 255 bytes file
// systems allow.
const maxStem = 160

// Stem is the stem of the definition at path (as given on the command line), workflow
// "" for a file that is one definition.
func (s *Stems) Stem(path, workflow string) string {
	if s.used == nil {
		s.used = map[string]string{}
	}
	owner := path + "\x00" + workflow
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if workflow != "" {
		base += "-" + workflow
	}
	sum := sha256.Sum256([]byte(owner))
	hash := hex.EncodeToString(sum[:])
	candidates := []string{fileStem(base)}
	if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) && dir != ".." {
		candidates = append(candidates, fileStem(dir+"_"+base))
	}
	candidates = append(candidates, fileStem(base)+"-"+hash[:8], fileStem(base)+"-"+hash[:16], hash)
	for _, c := range candidates {
		key := strings.ToLower(c)
		if o, taken := s.used[key]; !taken || o == owner {
			s.used[key] = owner
			return c
		}
	}
	return hash // the same path and workflow given twice
}

// fileStem is name with every character a file name should not hold replaced, and cut
// to maxStem bytes (a cut name ends with a hash of the whole, so two long names that
// share a beginning stay apart).
func fileStem(name string) string {
	out := make([]byte, 0, len(name))
	for i, r := range name { // a byte that is not UTF-8 is a RuneError, replaced
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'):
			out = append(out, byte(r))
		case (r == '-' || r == '.') && i > 0:
			out = append(out, byte(r))
		default:
			out = append(out, '_')
		}
	}
	if len(out) == 0 {
		return "scenario"
	}
	if len(out) > maxStem {
		sum := sha256.Sum256([]byte(name))
		out = append(out[:maxStem-17], '-')
		out = append(out, hex.EncodeToString(sum[:8])...)
	}
	return string(out)
}

// pin turns a path into a scenario (without definition, workflow and checksum).
func pin(def sim.Definition, p sim.Path) *Scenario {
	sc := &Scenario{Stubs: map[string][]*Stub{}, Context: maps.Clone(p.Context)}
	if sc.Context == nil {
		sc.Context = map[string]any{}
	}
	for _, st := range p.Steps {
		if def.Pin == nil {
			break
		}
		pn, ok := def.Pin(st, p.Context)
		if !ok {
			continue
		}
		if pn.Moved {
			delete(sc.Context, pn.Node)
		}
		sc.Stubs[pn.Node] = append(sc.Stubs[pn.Node], &Stub{Answer: pn.Answer})
	}
	sc.Expect.Status = p.Status.String()
	sc.Expect.HasPath = true
	for _, v := range Visits(p.Steps) {
		sc.Expect.Path = append(sc.Expect.Path, Visit{Node: v.Node, Outcomes: v.Outcomes[:1]})
	}
	return sc
}

// yaml writes the scenario as a file dws test reads: YAML, its values in JSON's flow
// style (which YAML reads as is, escapes included), keys sorted, so that the file is
// byte-stable. yamlValue escapes what YAML would not read back as written; the comment
// is printable, so no character of a path can end it and start a line of YAML.
func (sc *Scenario) yaml(comment string) []byte {
	var b strings.Builder
	j := yamlValue
	fmt.Fprintf(&b, "# %s\n", printable.String(comment))
	b.WriteString("$schema: https://dws.dev/schema/scenario.json\n")
	fmt.Fprintf(&b, "definition: %s\n", j(sc.Definition))
	if sc.Workflow != "" {
		fmt.Fprintf(&b, "workflow: %s\n", j(sc.Workflow))
	}
	if sc.Checksum != "" {
		fmt.Fprintf(&b, "checksum: %s\n", sc.Checksum) // sha256:HEX, made by dws
	}
	if len(sc.Context) > 0 {
		fmt.Fprintf(&b, "context: %s\n", j(sc.Context))
	}
	if len(sc.Stubs) > 0 {
		b.WriteString("stubs:\n")
		for _, node := range slices.Sorted(maps.Keys(sc.Stubs)) {
			var answers []string
			for _, st := range sc.Stubs[node] {
				m := map[string]any{}
				switch st.Answer.Kind {
				case "ok":
					if st.Answer.Output == nil {
						m["ok"] = true
					}
				case "fail":
					m["fail"] = st.Answer.Reason
				case "decision":
					m["decision"] = st.Answer.Decision
				}
				if st.Answer.Output != nil {
					m["output"] = st.Answer.Output
				}
				answers = append(answers, j(m))
			}
			fmt.Fprintf(&b, "  %s: [%s]\n", j(node), strings.Join(answers, ", "))
		}
	}
	b.WriteString("expect:\n")
	fmt.Fprintf(&b, "  status: %s\n", sc.Expect.Status) // a sim.Status
	path := make([]string, len(sc.Expect.Path))
	for i, v := range sc.Expect.Path {
		path[i] = v.String()
	}
	fmt.Fprintf(&b, "  path: %s\n", j(path))
	return []byte(b.String())
}

// yamlValue is v in JSON, which YAML reads as the same value, but for characters
// JSON leaves as they are and YAML does not: DEL and the C1 controls (YAML refuses them
// in a file), NEL, U+2028 and U+2029 (line breaks to YAML 1.1, which would fold a
// string) and U+FEFF. They can only stand inside a string, where \uXXXX is the same
// character to both.
func yamlValue(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	var b strings.Builder
	for _, r := range s {
		if r == 0xfeff || printable.Rune(r) != r {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
