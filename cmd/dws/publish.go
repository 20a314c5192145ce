package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

// publishedUnit is one versioned unit of a file, with its published entry as it is now.
type publishedUnit struct {
	path  string // the file, as shown
	unit  *change.Unit
	entry canonical.Published
}

// unitsToPublish reads the versioned units of files, each with its lockfile entry (its
// path relative to the lockfile at lockPath). Files of no dialect with versions have none.
// A file that does not parse is a problem: its units cannot be told, and a gate that
// skipped it would pass a published definition that broke.
func unitsToPublish(s *setup, lockPath string, files []string) ([]publishedUnit, []change.Problem, error) {
	l := &lint.Linter{Registry: s.reg, Config: s.cfg}
	var out []publishedUnit
	var problems []change.Problem
	for _, f := range files {
		data, err := source.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		in, units, bad := inspectUnits(l, f, data, false)
		problems = append(problems, bad...)
		for _, u := range units {
			if !change.Publishable(u) {
				continue
			}
			rel, err := canonical.RelPath(lockPath, f)
			if err != nil {
				return nil, nil, err
			}
			e, err := change.Entry(in.Doc, u, rel)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", f, err)
			}
			out = append(out, publishedUnit{path: f, unit: u, entry: e})
		}
	}
	return out, problems, nil
}

// publish is the --publish part of dws checksum --write: every versioned unit of the
// files goes into the lockfile's published section, which only grows. A unit whose
// version is published with other content is version-mutated, and then nothing is
// written at all (neither the published section nor the files' checksums).
func publish(c *cli.Context, s *setup, lockPath string, files []string) error {
	units, problems, err := unitsToPublish(s, lockPath, files)
	if err != nil {
		return failf(c.App.ErrWriter, "%v", err)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(c.App.ErrWriter, printable.String(p.String()))
		}
		return failf(c.App.ErrWriter, "%s not written: %s not parse", lockPath, notParsing(len(problems)))
	}
	entries := map[string]canonical.Published{}
	where := map[string]publishedUnit{}
	for _, pu := range units {
		key := pu.unit.Ref()
		if other, dup := where[key]; dup && !other.entry.Equal(pu.entry) {
			return failf(c.App.ErrWriter, "%s is defined with different content in %s and %s: nothing published", key, other.path, pu.path)
		}
		entries[key], where[key] = pu.entry, pu
	}
	if len(entries) == 0 {
		fmt.Fprintf(c.App.ErrWriter, "dws: no versioned definition to publish\n")
		return nil
	}
	added, conflicts, err := canonical.UpdatePublished(lockPath, entries)
	if err != nil {
		return outputError("--write", lockPath, err)
	}
	if len(conflicts) > 0 {
		for _, cf := range conflicts {
			pu := where[cf.Key]
			fmt.Fprintf(c.App.ErrWriter, "%s:%d:%d: error: %s was published with other content (%s, from %s); a published version never changes: bump the version [version-mutated]\n",
				printable.String(pu.path), pu.unit.VersionSpan.Start.Line, pu.unit.VersionSpan.Start.Col, cf.Key, short(cf.Old.Checksum), cf.Old.Path)
		}
		return failf(c.App.ErrWriter, "%s not written: %s published with other content before", lockPath, plural(len(conflicts), "version"))
	}
	fmt.Fprintf(c.App.ErrWriter, "dws: published %s in %s (%d already published)\n", plural(len(added), "version"), lockPath, len(entries)-len(added))
	return nil
}

// checkPublished is dws checksum --check LOCK --published: each versioned unit of the
// files is OK (published with this content), MUTATED (published with other content:
// version-mutated, the run fails) or UNPUBLISHED (version-unpublished, said only).
func checkPublished(c *cli.Context, s *setup, lockPath string, files []string) error {
	lock, err := canonical.ReadLock(lockPath)
	if err != nil {
		return usageError{err}
	}
	units, problems, err := unitsToPublish(s, lockPath, files)
	if err != nil {
		return failf(c.App.ErrWriter, "%v", err)
	}
	for _, p := range problems {
		fmt.Fprintln(c.App.ErrWriter, printable.String(p.String()))
	}
	out := c.App.Writer
	var ok, mutated, unpublished int
	for _, pu := range units {
		key := pu.unit.Ref()
		pub, found := lock.Published[key]
		switch {
		case !found:
			unpublished++
			fmt.Fprintf(out, "%s (%s): UNPUBLISHED\n", key, printable.String(pu.path))
		case !pub.Equal(pu.entry):
			mutated++
			var nodes []string
			for _, id := range slices.Sorted(maps.Keys(pu.entry.Nodes)) {
				if pub.Nodes[id] != pu.entry.Nodes[id] {
					nodes = append(nodes, id)
				}
			}
			for _, id := range slices.Sorted(maps.Keys(pub.Nodes)) {
				if _, still := pu.entry.Nodes[id]; !still {
					nodes = append(nodes, id)
				}
			}
			fmt.Fprintf(out, "%s (%s): MUTATED (published %s, now %s; nodes changed: %v) [version-mutated]\n",
				key, printable.String(pu.path), short(pub.Checksum), short(pu.entry.Checksum), nodes)
		default:
			ok++
			fmt.Fprintf(out, "%s (%s): OK\n", key, printable.String(pu.path))
		}
	}
	fmt.Fprintf(out, "%d published and unchanged, %d mutated, %d unpublished", ok, mutated, unpublished)
	if len(problems) > 0 {
		fmt.Fprintf(out, "; %s not parse", notParsing(len(problems)))
	}
	fmt.Fprintln(out)
	if mutated > 0 || len(problems) > 0 {
		return exitCode(exitFindings)
	}
	return nil
}

func short(sum string) string {
	if len(sum) > len("sha256:")+12 {
		return sum[:len("sha256:")+12] + "…"
	}
	return sum
}

// notParsing says how many files do not parse.
func notParsing(n int) string {
	if n == 1 {
		return "1 file does"
	}
	return fmt.Sprintf("%d files do", n)
}
