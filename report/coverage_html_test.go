package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Graphviz the coverage page carries is the published @viz-js/viz package's
// dist/viz-global.js, byte for byte (scripts/test.sh installs the version the
// assets/README.md names), and the page's copy of it differs only in how it writes
// control characters: they are its \xNN escapes, so the page is well-formed XML.
func TestVizIsThePublishedPackage(t *testing.T) {
	published := filepath.Join("..", ".cache", "viz", "node_modules", "@viz-js", "viz", "dist", "viz-global.js")
	want, err := os.ReadFile(published)
	if err != nil {
		t.Fatalf("the @viz-js/viz package is not installed (%v): scripts/test.sh installs it", err)
	}
	if !bytes.Equal([]byte(vizJS), want) {
		t.Fatalf("assets/viz-global.js is not the installed package's %s", published)
	}
	readme, err := os.ReadFile(filepath.Join("assets", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("..", "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	version := ""
	for _, line := range strings.Split(string(script), "\n") {
		if _, v, ok := strings.Cut(line, "@viz-js/viz@"); ok {
			version = strings.Fields(v)[0]
		}
	}
	if version == "" || !strings.Contains(string(readme), "`@viz-js/viz` "+version) {
		t.Errorf("scripts/test.sh installs @viz-js/viz %q; assets/README.md names another", version)
	}
	s := vizScript()
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			t.Fatalf("the page's script holds control character %#x", r)
		}
	}
	if strings.Contains(s, "]]>") || strings.Contains(strings.ToLower(s), "</script") {
		t.Fatal("the script would end its CDATA section or its script element early")
	}
}
