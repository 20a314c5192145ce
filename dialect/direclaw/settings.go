package direclaw

import (
	"errors"
	"fmt"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// Release is which DireClaw the files must run on (.dws.yaml direclaw.release).
type Release uint8

const (
	// Both is the default: the seed format's rules are errors and the current release's
	// further rules direclaw-compat warnings, so a file that passes runs on either.
	Both Release = iota
	// Seed is the seed format alone; direclaw-compat is off.
	Seed
	// Current is the current release alone. Its rules are errors (direclaw-compat), what
	// only the seed format requires is not asked for, and the keys the current release
	// ignores are reported instead of followed.
	Current
)

func (r Release) String() string {
	switch r {
	case Seed:
		return "seed"
	case Current:
		return "current"
	}
	return "both"
}

// seed reports whether the seed format's rules apply.
func (r Release) seed() bool { return r != Current }

// current reports whether the current release's reading applies (routes, templates).
func (r Release) current() bool { return r == Current }

// Settings is the `direclaw:` section of .dws.yaml.
type Settings struct {
	Release Release
}

// RuleDefaults makes direclaw-compat an error under release: current and turns it off
// under release: seed (lint.RuleDefaults); rules: still wins.
func (s *Settings) RuleDefaults() map[string]lint.Severity {
	switch s.Release {
	case Current:
		return map[string]lint.Severity{"direclaw-compat": lint.Error}
	case Seed:
		return map[string]lint.Severity{"direclaw-compat": lint.Off}
	}
	return nil
}

const configDoc = `# DireClaw: which release the orchestrator.yaml files must run on. both (the default):
# the seed format's rules are errors and what current releases add is a direclaw-compat
# warning, so a file that passes runs on either. current: the current release's rules
# are errors, seed-only requirements (inputs) are not asked for, and keys it ignores
# (on_blocked, on_failed, needs, write_state, a step's limits.timeout_seconds) are
# direclaw-compat errors, not routes. seed: the seed format only, no direclaw-compat.
# direclaw: { release: both }
`

func parseSettings(n *source.Node, _ string) (any, error) {
	if n.Kind != source.Object {
		return nil, errors.New("want a mapping {release}")
	}
	s := &Settings{}
	for _, m := range n.Members {
		switch m.Key {
		case "release":
			v, _ := m.Value.Str()
			switch v {
			case "both":
				s.Release = Both
			case "seed":
				s.Release = Seed
			case "current":
				s.Release = Current
			default:
				return nil, lint.ConfigErrorAt(m.Value, "direclaw.release: %q is not a release (want seed, current or both)", lint.Scalar(m.Value))
			}
		default:
			return nil, &lint.ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col),
				Msg: fmt.Sprintf("direclaw: unknown key %q (want release)", m.Key)}
		}
	}
	return s, nil
}

// releaseOf is the release the file is checked for.
func releaseOf(f *lint.File) Release {
	if f != nil && f.Config != nil {
		if s, ok := f.Config.Section(ID).(*Settings); ok {
			return s.Release
		}
	}
	return Both
}
