package main

import (
	"strings"

	"github.com/dwsdev/dws/schema"
	"github.com/urfave/cli/v2"
)

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print a dialect's embedded JSON Schema",
		ArgsUsage: "DIALECT",
		Description: "Prints the JSON Schema dws validates DIALECT against, for editors and other tools.\n" +
			"Dialects: " + strings.Join(schema.Dialects(), ", ") + ".\n" +
			"Also scenario: the scenario files (*.scenario.yaml) of dws test.",
		BashComplete: completeWords(schemaNames),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("schema: give one dialect (%s)", strings.Join(schema.Dialects(), ", "))
			}
			src, ok := schema.Source(c.Args().First())
			if !ok {
				return usagef("schema: unknown dialect %q (known: %s)", c.Args().First(), strings.Join(schema.Dialects(), ", "))
			}
			_, err := c.App.Writer.Write(src)
			return err
		},
	}
}
