package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Built without cgo, dws cannot work (the PostgreSQL parser is C): the first error the
// build prints says so, before the parser's own "undefined: pg.Parse".
func TestBuildWithoutCgoSaysWhy(t *testing.T) {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("go build with CGO_ENABLED=0 succeeded; dws cannot parse SQL without cgo")
	}
	lines := strings.Split(string(out), "\n")
	first := ""
	for _, l := range lines {
		if strings.Contains(l, "undefined:") {
			first = l
			break
		}
	}
	if !strings.Contains(first, "dws_needs_cgo_build_with_CGO_ENABLED_1_and_a_C_compiler_see_README") {
		t.Errorf("the first build error is %q, want the dws_needs_cgo one\n%s", first, out)
	}
}
