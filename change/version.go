package change

import (
	"fmt"
	"regexp"
	"strconv"
)

// Class is what a change is worth, in rising order.
type Class uint8

// The change classes of SPEC §17.
const (
	NoChange Class = iota
	Cosmetic
	Feature
	Breaking
)

var classNames = [...]string{"none", "cosmetic", "feature", "breaking"}

func (c Class) String() string { return classNames[c] }

// ParseClass reads a class name (breaking, feature, cosmetic).
func ParseClass(s string) (Class, bool) {
	for i, n := range classNames {
		if n == s && i > 0 {
			return Class(i), true
		}
	}
	return NoChange, false
}

// Bump is a version step, in rising order.
type Bump uint8

// The bumps: none, patch, minor, major; Increment is DireClaw's any increase.
const (
	NoBump Bump = iota
	Patch
	Minor
	Major
	Increment
)

var bumpNames = [...]string{"none", "patch", "minor", "major", "increment"}

func (b Bump) String() string { return bumpNames[b] }

// phrase is the bump with its article, for messages: "a major bump", "an increment".
func (b Bump) phrase() string {
	if b == Increment {
		return "an increment"
	}
	return "a " + b.String() + " bump"
}

// version is a parsed version: up to three numbers, compared in order.
type version [3]uint64

var (
	cortexVersion = regexp.MustCompile(`^v(\d+)\.(\d+)$`)
	// A pre-release or build suffix is read and ignored (see the package doc).
	semverVersion  = regexp.MustCompile(`^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$`)
	integerVersion = regexp.MustCompile(`^(\d+)$`)
)

// parseVersion reads v in scheme s.
func parseVersion(s Scheme, v string) (version, bool) {
	var re *regexp.Regexp
	switch s {
	case Cortex:
		re = cortexVersion
	case Semver:
		re = semverVersion
	case Integer:
		re = integerVersion
	default:
		return version{}, false
	}
	m := re.FindStringSubmatch(v)
	if m == nil {
		return version{}, false
	}
	var out version
	for i, d := range m[1:] {
		n, err := strconv.ParseUint(d, 10, 64)
		if err != nil {
			return version{}, false
		}
		out[i] = n
	}
	return out, true
}

func (a version) cmp(b version) int {
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}

// needed is the bump a change of class c needs in scheme s from version old: breaking
// a MAJOR (a MINOR below 1.0), feature a MINOR, cosmetic a PATCH; Cortex has no patch
// level, so cosmetic needs a MINOR there; DireClaw's integer any increment.
func needed(s Scheme, c Class, old version) Bump {
	if c == NoChange {
		return NoBump
	}
	if s == Integer {
		return Increment
	}
	switch c {
	case Breaking:
		if old[0] == 0 {
			return Minor
		}
		return Major
	case Feature:
		return Minor
	}
	if s == Cortex {
		return Minor
	}
	return Patch
}

// made is the bump from old to new; ok is false when new is lower.
func made(s Scheme, old, new version) (Bump, bool) {
	switch c := new.cmp(old); {
	case c < 0:
		return NoBump, false
	case c == 0:
		return NoBump, true
	}
	if s == Integer {
		return Increment, true
	}
	switch {
	case new[0] > old[0]:
		return Major, true
	case new[1] > old[1]:
		return Minor, true
	}
	return Patch, true
}

// Verdict is what the version rules say of a changed unit.
type Verdict struct {
	// Needed is the bump the changes need, Made the one the versions show.
	Needed, Made Bump
	// Rule is the version rule that fires ("" when the bump is right):
	// version-not-bumped, version-bump-too-small or version-decreased.
	Rule    string
	Message string
	// Severity is the rule's severity as configured (set by the caller; "" reads as
	// error, the rules' default).
	Severity string
}

// verdict judges the versions of a pair against the class of its changes; nil when
// the unit has no version scheme or a version cannot be read (Note says which).
func verdict(old, new *Unit, c Class) (*Verdict, string) {
	if new.Scheme == None || old.Scheme != new.Scheme {
		return nil, ""
	}
	ov, ok1 := parseVersion(old.Scheme, old.Version)
	nv, ok2 := parseVersion(new.Scheme, new.Version)
	switch {
	case !ok1 && !ok2:
		return nil, fmt.Sprintf("no version to judge: OLD has %q, NEW %q", old.Version, new.Version)
	case !ok1:
		return nil, fmt.Sprintf("no version to judge: OLD has %q", old.Version)
	case !ok2:
		return nil, fmt.Sprintf("no version to judge: NEW has %q", new.Version)
	}
	v := &Verdict{Needed: needed(new.Scheme, c, ov)}
	m, up := made(new.Scheme, ov, nv)
	v.Made = m
	switch {
	case !up:
		v.Rule = "version-decreased"
		v.Message = fmt.Sprintf("version went down from %s to %s", old.Version, new.Version)
	case c == NoChange:
	case m == NoBump:
		v.Rule = "version-not-bumped"
		v.Message = fmt.Sprintf("%s changes need %s; the version stayed %s", c, v.Needed.phrase(), new.Version)
	case m < v.Needed:
		v.Rule = "version-bump-too-small"
		v.Message = fmt.Sprintf("%s changes need %s; %s → %s is %s", c, v.Needed.phrase(), old.Version, new.Version, m.phrase())
	}
	return v, ""
}
