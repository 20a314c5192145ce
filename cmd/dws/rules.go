package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/dwsdev/dws/lint"
	"github.com/urfave/cli/v2"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:  "rules",
		Usage: "list every rule with its default severity",
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"}, "text", "json"),
		},
		Action: func(c *cli.Context) error {
			s, err := loadSetup("")
			if err != nil {
				return err
			}
			switch c.String("format") {
			case "json":
				type rule struct {
					ID       string `json:"id"`
					Severity string `json:"severity"`
					Dialect  string `json:"dialect"`
					Summary  string `json:"summary"`
				}
				out := []rule{}
				for _, r := range s.reg.Rules() {
					out = append(out, rule{r.ID, r.Severity.String(), dialectOf(r), r.Summary})
				}
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			case "text":
				tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "RULE\tSEVERITY\tDIALECT\tSUMMARY")
				for _, r := range s.reg.Rules() {
					d := dialectOf(r)
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, d, r.Summary)
				}
				return tw.Flush()
			}
			return usagef("--format: %q is not text or json", c.String("format"))
		},
	}
}

// dialectOf is the dialect a rule belongs to, "all" for a core rule, in every format.
func dialectOf(r lint.Rule) string {
	if r.Dialect == "" {
		return "all"
	}
	return r.Dialect
}
