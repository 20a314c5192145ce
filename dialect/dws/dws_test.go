package dws

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		secs float64
		ok   bool
	}{
		{"PT4H", 4 * 3600, true},
		{"PT30M", 1800, true},
		{"PT1H30M", 5400, true},
		{"PT1H30M15S", 5415, true},
		{"PT45S", 45, true},
		{"P1D", 86400, true},
		{"P1DT12H", 86400 + 12*3600, true},
		{"P2W", 14 * 86400, true},
		{"P1M", 30 * 86400, true},
		{"P1Y2M3DT4H5M6S", 365*86400 + 60*86400 + 3*86400 + 4*3600 + 5*60 + 6, true},
		{"P1Y", 365 * 86400, true},
		// RFC 3339 Appendix A skips no unit between the first and the last.
		{"PT1H30S", 0, false},
		{"P1Y3D", 0, false},
		{"PT0.5S", 0, false},
		{"PT", 0, false},
		{"P", 0, false},
		{"P1DT", 0, false},
		{"P1W2D", 0, false},
		{"pt1h", 0, false},
		{"4h", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		secs, ok := parseDuration(tt.in)
		if ok != tt.ok || secs != tt.secs {
			t.Errorf("parseDuration(%q) = %v, %v; want %v, %v", tt.in, secs, ok, tt.secs, tt.ok)
		}
	}
}

func TestCheckJSONPath(t *testing.T) {
	valid := []string{
		"$", "$.output.severity", "$.artifacts.design-document", "$.a_b.c2", "$..name", "$.*",
		"$.items[0]", "$.items[-1]", "$.items[*]", "$['a b']", `$["x"]`, "$.items[0,2]",
		"$.items[1:3]", "$.items[::2]", "$.a[?(@.b == 'c]')]", "$..[0]", "$.résumé",
	}
	for _, p := range valid {
		if at, why := checkJSONPath(p); why != "" {
			t.Errorf("checkJSONPath(%q) = %d, %q; want valid", p, at, why)
		}
	}
	invalid := []struct {
		in string
		at int
	}{
		{"output.severity", 0},
		{"$.", 2},
		{"$.a..", 5},
		{"$.a b", 3},
		{"$.a[", 3},
		{"$.a['b'", 3},
		{"$.a[b]", 4},
		{"$.a[0 1]", 6},
		{"$.[0]", 2},
		{"$.a.!", 4},
		{"$a", 1},
	}
	for _, tt := range invalid {
		if at, why := checkJSONPath(tt.in); why == "" || at != tt.at {
			t.Errorf("checkJSONPath(%q) = %d, %q; want a problem at %d", tt.in, at, why, tt.at)
		}
	}
}

func TestBundleRoot(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec")
	if err := os.MkdirAll(filepath.Join(spec, "workers", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(spec, ManifestName), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{spec, filepath.Join(spec, ManifestName), filepath.Join(spec, "workers"),
		filepath.Join(spec, "workers", "deep", "missing.json")} {
		if root, ok := bundleRoot(p); !ok || root != spec {
			t.Errorf("BundleRoot(%q) = %q, %v; want %q", p, root, ok, spec)
		}
	}
	if root, ok := bundleRoot(dir); ok {
		t.Errorf("BundleRoot(%q) = %q; want none", dir, root)
	}
}

func TestBundleFiles(t *testing.T) {
	spec := t.TempDir()
	for _, name := range []string{ManifestName, "workers/a.json", "workers/b.yaml", "workers/notes.txt",
		"workers/.hidden/x.json", "tasks/sub/t.yml", "skills/s.json", "outcomes/o.json", "README.json"} {
		p := filepath.Join(spec, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check, ctx, err := bundleFiles(spec)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			r, _ := filepath.Rel(spec, p)
			out[i] = filepath.ToSlash(r)
		}
		return out
	}
	wantCheck := []string{ManifestName, "workers/a.json", "workers/b.yaml", "tasks/sub/t.yml"}
	wantCtx := []string{"skills/s.json", "outcomes/o.json"}
	if got := rel(check); !slices.Equal(got, wantCheck) {
		t.Errorf("check = %v, want %v", got, wantCheck)
	}
	if got := rel(ctx); !slices.Equal(got, wantCtx) {
		t.Errorf("context = %v, want %v", got, wantCtx)
	}
}
