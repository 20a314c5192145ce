package canonical

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzBytes feeds arbitrary JSON to the canonicaliser: it must never panic,
// the tree writer must agree with jcs.Transform, and canonical bytes must be a fixed point (canonicalising them again gives
// the same bytes). The seed corpus is in testdata/fuzz/FuzzBytes.
func FuzzBytes(f *testing.F) {
	for _, s := range []string{
		`{"b":[1.50,15e-1,"\u00e9"],"a":null,"signature":"x"}`,
		`[[[[[]]]]]`,
		`"\ud83d\ude00"`,
		`1e400`,
		`{"\u20ac":1,"\ufb33":2,"\ud83d\ude00":3}`,
		`-0.0`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc any
		if dec.Decode(&doc) != nil {
			return
		}
		if checkValue(doc, 0) == nil {
			agree(t, doc) // the tree writer and jcs give the same bytes
		}
		canon, err := Bytes(doc)
		if err != nil {
			return
		}
		again, err := Bytes(decode(t, canon))
		if err != nil {
			t.Fatalf("canonical bytes %q do not canonicalise: %v", canon, err)
		}
		if !bytes.Equal(canon, again) {
			t.Fatalf("not a fixed point:\n%q\n%q", canon, again)
		}
		if canonicalSum(canon) != mustChecksum(t, doc) {
			t.Fatal("Checksum disagrees with canonicalSum(Bytes)")
		}
	})
}
