// Command gen writes the code internal/pggen generates from pg_query_go's types:
//
//	go run ./internal/pggen/gen walk sqlallow sqlallow/walk_gen.go
//	go run ./internal/pggen/gen raw pgparse internal/pgparse/raw_gen.go
//
// It is run by go generate in the packages that hold the output. The raw output
// also reads pg_query's C sources vendored in the pgquery directory beside it.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dwsdev/dws/internal/pggen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: gen walk|raw PACKAGE FILE")
	}
	var src []byte
	var err error
	switch args[0] {
	case "walk":
		src, err = pggen.Walk(args[1])
	case "raw":
		src, err = pggen.Raw(args[1], filepath.Join(filepath.Dir(args[2]), "pgquery"))
	default:
		return fmt.Errorf("unknown output %q", args[0])
	}
	if err != nil {
		return err
	}
	return os.WriteFile(args[2], src, 0o644)
}
