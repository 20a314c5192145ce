package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sqlcheck"
	"github.com/urfave/cli/v2"
)

const initConfig = `# dws configuration, written by dws init. Paths and globs are relative to this file.
# Every key is optional; docs/configuration.md in dws's repository describes
# each one, and dws explain RULE describes a rule.
version: 1

# What a bare "dws validate" and a directory walk take.
include: ["**/*.json", "**/*.yaml", "**/*.yml"]
exclude: []

# Files whose dialect cannot be detected from their keys: glob -> dialect.
# dialects: { "legacy/**/*.json": cortex }

# Engines cap definition size; so does dws.
limits: { max_bytes: 65536, max_steps: 100 }

# Change a rule's severity (error, warning, info) or turn it off.
# rules: { missing-verification-gate: off }

# Accepted findings, each with a reason. pointer (a JSON Pointer) is optional.
# ignore:
#   - { path: "workflows/vendor/*.json", rules: [http-idempotency-key], pointer: /steps/3, reason: "vendor API has no idempotency" }

# Findings recorded by "dws validate --write-baseline .dws-baseline.json" and hidden
# from then on; new findings still fail.
# baseline: .dws-baseline.json

# Checksums recorded by "dws checksum --write dws.lock FILES": a changed file is then
# checksum-mismatch, an unlisted one checksum-missing. With --publish, versions are
# recorded for good: a published version whose content changes is version-mutated.
# lock: dws.lock

# Renames dws diff pairs by (it never guesses): a unit (kind:name), or a node of one.
# renames:
#   - { from: "cortex:expense", to: "cortex:expense-claims" }
#   - { unit: "cortex:expense-claims", from: fraud-score, to: risk-score }

# Let "# dws:ignore" comments waive sql-table, sql-column and sql-function (off: only
# this file can waive what guards the database).
# inline_security_waivers: false

` + sqlcheck.ConfigDoc

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "write a commented .dws.yaml in the current directory",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "overwrite an existing .dws.yaml"}},
		Action: func(c *cli.Context) error {
			if _, err := os.Stat(lint.ConfigName); err == nil && !c.Bool("force") {
				return usagef("init: %s already exists (use --force to overwrite)", lint.ConfigName)
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return outputError("init", lint.ConfigName, err)
			}
			if err := writeOutput("init", lint.ConfigName, []byte(initText())); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s\n", lint.ConfigName)
			return nil
		},
	}
}

// initText is what dws init writes: the core keys, then each dialect's documentation of
// the sections it owns.
func initText() string {
	text := initConfig
	for _, d := range dialect.All() {
		if d.ConfigDoc != "" {
			text += "\n" + d.ConfigDoc
		}
	}
	return text
}
