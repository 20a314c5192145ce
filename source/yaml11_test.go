package source

import (
	"strings"
	"testing"
)

// Plain scalars whose YAML 1.1 reading differs from dws's YAML 1.2 reading are found,
// and nothing else is: quoted strings, and scalars both versions read alike.
func TestYAML11Differences(t *testing.T) {
	doc, err := Parse("d.yaml", []byte(`a: no
b: "no"
c: 010
d: 10
e: 0o17
f: 1e3
g: 1.5
h: true
i: on
j: 2001-12-14
k: 0x1F
l: 1_000
m: ~
n: 1:20
o: hello
no: key
'yes': quoted key
p: [Off, 'off', 0b101]
`), YAML)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range doc.YAML11Differences() {
		got = append(got, d.Text+"="+d.There)
	}
	want := "no=false 010=8 0o17=\"0o17\" 1e3=\"1e3\" on=true 2001-12-14=a timestamp 1_000=1000 n=false 1:20=80 no=false Off=false 0b101=5"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if json, _ := Parse("d.json", []byte(`{"a": "no"}`), JSON); len(json.YAML11Differences()) != 0 {
		t.Error("a JSON document has no YAML 1.1 reading")
	}
}
