package canonical

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// agree checks that the tree writer and jcs.Transform give the same bytes for doc, or
// both refuse it.
func agree(t *testing.T, doc any) {
	t.Helper()
	doc = withoutSignature(doc)
	got, err1 := bytesOf(doc)
	want, err2 := viaJCS(doc)
	if (err1 != nil) != (err2 != nil) {
		t.Fatalf("tree writer error %v, jcs error %v", err1, err2)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("canonical bytes differ\n tree: %s\n  jcs: %s", got, want)
	}
}

// The tree writer is held to jcs.Transform on every generated document, every vector
// and every JSON file of the repository's fixtures and corpus.
func TestWriteAgreesWithJCS(t *testing.T) {
	forEachDoc(t, func(t *testing.T, _ *rand.Rand, doc map[string]any) { agree(t, doc) })
	var files []string
	for _, pattern := range []string{
		"testdata/jcs/input/*.json",
		"../../shared/corpus/jcs/input/*.json",
		"../fixtures/*/*/*.json",
		"../fixtures/*/*/*/*.json",
		"../fixtures/*/*/*/*/*.json",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d files to compare", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || !stdjson.Valid(data) {
			continue // a fixture that is broken on purpose
		}
		t.Run(strings.TrimPrefix(f, "../"), func(t *testing.T) { agree(t, decode(t, data)) })
	}
	for _, text := range []string{
		`1e400`, `-0.0`, `[1E+2, 0.000001, 1e-7, 123456789012345678901234567890]`,
		`"\u0000\u001f\u007f\u2028\ud83d\ude00\\\"/"`, `{"\u20ac":1,"\ufb33":2,"\ud83d\ude00":3,"a":4,"":5}`,
	} {
		agree(t, decode(t, []byte(text)))
	}
}

func TestInexact(t *testing.T) {
	for lit, want := range map[string]bool{
		"0.1": false, "1": false, "-0": false, "1e300": false, "9007199254740992": false, "1.5e-7": false,
		"9007199254740993": true, "1.00000000000000001": true, "123456789012345678901": true, "1e400": true,
	} {
		if got := Inexact(lit); got != want {
			t.Errorf("Inexact(%s) = %v, want %v", lit, got, want)
		}
	}
}

// TestCompareUTF16: member names sort as their UTF-16 code units do, whatever mix of
// ASCII, two- and three-byte characters, E000-FFFF and surrogate pairs they hold.
func TestCompareUTF16(t *testing.T) {
	alphabet := []rune{'a', 'b', 'Z', 0x7f, 0xe9, 0x20ac, 0xd7ff, 0xe000, 0xfb33, 0xffff, 0x10000, 0x1f600, 0x1f601, 0x10ffff}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		n := r.IntN(4)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(rs)
	}
	for range 200000 {
		a, b := word(), word()
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := compareUTF16(a, b); (got > 0) != (want > 0) || (got < 0) != (want < 0) {
			t.Fatalf("compareUTF16(%q, %q) = %d, UTF-16 order says %d", a, b, got, want)
		}
	}
}

// TestShortIntegers: integers written as they are keep their canonical form; the rest
// go through the double.
func TestShortIntegers(t *testing.T) {
	for lit, want := range map[string]string{"0": "0", "-0": "0", "7": "7", "-123456789012345": "-123456789012345",
		"1234567890123456": "1234567890123456", "12345678901234567": "12345678901234568", "1e2": "100", "100.0": "100"} {
		got, err := Bytes(stdjson.Number(lit))
		if err != nil || string(got) != want {
			t.Errorf("%s: %s, %v; want %s", lit, got, err, want)
		}
	}
	if _, err := Bytes(stdjson.Number("01")); err == nil {
		t.Error("01 was accepted as a number")
	}
}

// TestValidNumberIsGrammar holds validNumber to RFC 8259's number grammar, written as a
// regexp, on every string of up to six characters from the ones that matter.
func TestValidNumberIsGrammar(t *testing.T) {
	grammar := regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	alphabet := []string{"-", "+", "0", "1", "9", ".", "e", "E", "x"}
	var check func(s string, n int)
	check = func(s string, n int) {
		if got, want := validNumber(s), grammar.MatchString(s); got != want {
			t.Fatalf("validNumber(%q) = %v, the grammar says %v", s, got, want)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			check(s+c, n-1)
		}
	}
	check("", 6)
}
