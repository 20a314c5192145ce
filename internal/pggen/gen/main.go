// Command gen writes the code internal/pggen generates from pg_query_go's types:
//
//	go run ./internal/pggen/gen walk sqlallow sqlallow/walk_gen.go
//	go run ./internal/pggen/gen tree pgparse internal/pgparse/tree_gen.go
//
// It is run by go generate in the packages that hold the output.
package main

import (
	"fmt"
	"os"

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
		return fmt.Errorf("usage: gen walk|tree PACKAGE FILE")
	}
	var src []byte
	var err error
	switch args[0] {
	case "walk":
		src, err = pggen.Walk(args[1])
	case "tree":
		src, err = pggen.Tree(args[1])
	default:
		return fmt.Errorf("unknown output %q", args[0])
	}
	if err != nil {
		return err
	}
	return os.WriteFile(args[2], src, 0o644)
}
