// Command pgfloor measures the floor under dws's SQL stage: the CPU time libpg_query's
// parser alone takes on every statement and branch expression of a corpus (one
// goroutine, each text parsed once, as dws parses it: {{name}} placeholders replaced by
// parameters, expressions wrapped in SELECT). It prints, for the grammar alone and for
// each layer pg_query_go adds over it, the CPU seconds and the files a second that
// layer could take on one core.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	pg "github.com/pganalyze/pg_query_go/v5"
	"github.com/pganalyze/pg_query_go/v5/parser"

	"github.com/dwsdev/dws/internal/pgparse"
)

var placeholder = regexp.MustCompile(`\{\{[^}]*\}\}`)

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pgfloor DIR")
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*.json"))
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "pgfloor: no *.json files in", os.Args[1])
		os.Exit(2)
	}
	var texts []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var doc struct {
			Steps []struct {
				Params struct {
					Statement  string `json:"statement"`
					Expression string `json:"expression"`
				} `json:"params"`
			} `json:"steps"`
		}
		if json.Unmarshal(data, &doc) != nil {
			continue
		}
		for _, s := range doc.Steps {
			if s.Params.Statement != "" {
				texts = append(texts, placeholder.ReplaceAllLiteralString(s.Params.Statement, "$99"))
			}
			if s.Params.Expression != "" {
				texts = append(texts, "SELECT ("+placeholder.ReplaceAllLiteralString(s.Params.Expression, "$99")+"\n)")
			}
		}
	}
	// Each layer of pg_query_go timed alone, on the same texts: the grammar (raw_parser,
	// whose only output is where each statement ends), the grammar plus protobuf-c's
	// packing of the tree in C, and all of pg.Parse (plus Go's protobuf decoding).
	var arena pgparse.Arena
	layers := []struct {
		name  string
		parse func(string) error
	}{
		{"raw parse (the floor)", func(t string) error { _, err := pg.SplitWithParser(t, false); return err }},
		{"parse to protobuf in C", func(t string) error { _, err := parser.ParseToProtobuf(t); return err }},
		{"pg.Parse (C + Go decode)", func(t string) error { _, err := pg.Parse(t); return err }},
		{"pgparse.Parse (Go tree from C)", func(t string) error { _, err := pgparse.Parse(t); return err }},
		{"pgparse Arena.Parse (reused)", func(t string) error { _, err := arena.Parse(t); return err }},
	}
	for _, l := range layers {
		before := cpu()
		for _, t := range texts {
			if err := l.parse(t); err != nil {
				fmt.Fprintf(os.Stderr, "pgfloor: %v: %s\n", err, t)
				os.Exit(1)
			}
		}
		spent := cpu() - before
		fmt.Printf("libpg_query %-26s %d texts of %d files: %5.2f CPU-s, %7.0f files/s on one core\n",
			l.name+":", len(texts), len(files), spent.Seconds(), float64(len(files))/spent.Seconds())
	}
}
