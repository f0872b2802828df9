package getproviders

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// Version is a provider version: MAJOR.MINOR.PATCH with an optional
// -prerelease (build metadata is dropped, as registries do).
type Version struct {
	Major, Minor, Patch uint64
	Prerelease          string
}

// ParseVersion parses "3.2.4", "v3.2.4" or "1.0.0-beta1".
func ParseVersion(s string) (Version, error) {
	v, parts, err := parseVersionParts(strings.TrimPrefix(s, "v"))
	if err != nil {
		return Version{}, err
	}
	if parts != 3 {
		return Version{}, fmt.Errorf("invalid version %q: want MAJOR.MINOR.PATCH", s)
	}
	return v, nil
}

// parseVersionParts parses a possibly abbreviated version ("3", "3.2",
// "3.2.4-beta") and says how many numeric parts it had.
func parseVersionParts(s string) (Version, int, error) {
	var v Version
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		v.Prerelease = s[i+1:]
		s = s[:i]
		if v.Prerelease == "" {
			return Version{}, 0, fmt.Errorf("invalid version %q: empty prerelease", s)
		}
	}
	fields := strings.Split(s, ".")
	if len(fields) == 0 || len(fields) > 3 {
		return Version{}, 0, fmt.Errorf("invalid version %q", s)
	}
	nums := []*uint64{&v.Major, &v.Minor, &v.Patch}
	for i, f := range fields {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil || (len(f) > 1 && f[0] == '0') {
			return Version{}, 0, fmt.Errorf("invalid version %q", s)
		}
		*nums[i] = n
	}
	if v.Prerelease != "" && len(fields) != 3 {
		return Version{}, 0, fmt.Errorf("invalid version %q: a prerelease needs MAJOR.MINOR.PATCH", s)
	}
	return v, len(fields), nil
}

// String returns the version without a "v": "3.2.4", "1.0.0-beta1".
func (v Version) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Prerelease != "" {
		s += "-" + v.Prerelease
	}
	return s
}

// Compare returns -1, 0 or +1 as v sorts before, with or after w
// (semantic versioning precedence).
func (v Version) Compare(w Version) int { return semver.Compare("v"+v.String(), "v"+w.String()) }

// Versions is a list of versions; Sort orders it newest first.
type Versions []Version

// SortNewestFirst sorts vs from newest to oldest.
func (vs Versions) SortNewestFirst() {
	sort.Slice(vs, func(i, j int) bool { return vs[i].Compare(vs[j]) > 0 })
}

// Constraint is one "OP VERSION" part of a version constraint string.
type Constraint struct {
	// Op is one of "=", "!=", ">", ">=", "<", "<=", "~>".
	Op string
	// Version is the boundary, abbreviated parts set to zero.
	Version Version
	// Parts is how many numeric parts the boundary was written with (1–3).
	Parts int
}

// Constraints is a list of constraints that must all hold.
type Constraints []Constraint

// ParseConstraints parses a Terraform version constraint string:
// comma-separated "OP VERSION" parts with OP one of =, !=, >, >=, <, <=, ~>
// (none means =). An empty string allows every version.
func ParseConstraints(s string) (Constraints, error) {
	var out Constraints
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		op := ""
		for _, o := range []string{"~>", ">=", "<=", "!=", ">", "<", "="} {
			if strings.HasPrefix(part, o) {
				op = o
				break
			}
		}
		rest := strings.TrimSpace(strings.TrimPrefix(part, op))
		if op == "" {
			op = "="
		}
		v, n, err := parseVersionParts(strings.TrimPrefix(rest, "v"))
		if err != nil || rest == "" {
			return nil, fmt.Errorf("invalid version constraint %q", part)
		}
		c := Constraint{Op: op, Version: v, Parts: n}
		if !containsConstraint(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func containsConstraint(cs Constraints, c Constraint) bool {
	for _, x := range cs {
		if x.Op == c.Op && x.Version == c.Version && (x.Parts == c.Parts || x.Op != "~>") {
			return true
		}
	}
	return false
}

// Merge returns cs followed by the constraints of more that cs lacks.
func (cs Constraints) Merge(more Constraints) Constraints {
	out := append(Constraints(nil), cs...)
	for _, c := range more {
		if !containsConstraint(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Allows reports whether v satisfies every constraint. A prerelease is
// allowed only when a constraint names it exactly, as Terraform decides.
func (cs Constraints) Allows(v Version) bool {
	if v.Prerelease != "" {
		named := false
		for _, c := range cs {
			if c.Op == "=" && c.Parts == 3 && c.Version == v {
				named = true
			}
		}
		if !named {
			return false
		}
	}
	for _, c := range cs {
		if !c.allows(v) {
			return false
		}
	}
	return true
}

func (c Constraint) allows(v Version) bool {
	cmp := v.Compare(c.Version)
	switch c.Op {
	case "=":
		return c.prefixMatch(v)
	case "!=":
		return !c.prefixMatch(v)
	case ">":
		return cmp > 0
	case ">=":
		return cmp >= 0
	case "<":
		return cmp < 0
	case "<=":
		return cmp <= 0
	case "~>":
		if cmp < 0 {
			return false
		}
		if c.Parts == 3 {
			return v.Major == c.Version.Major && v.Minor == c.Version.Minor
		}
		return v.Major == c.Version.Major
	}
	return false
}

// prefixMatch compares only the parts the boundary was written with.
func (c Constraint) prefixMatch(v Version) bool {
	switch c.Parts {
	case 1:
		return v.Major == c.Version.Major
	case 2:
		return v.Major == c.Version.Major && v.Minor == c.Version.Minor
	}
	return v == c.Version
}

// String writes the constraints in the normalized form OpenTofu and
// Terraform record in the lock file: "~> 3.0", ">= 1.2.0, < 2.0.0", "3.2.4".
// The constraints are sorted by their boundary, then by operator (lower
// bounds before upper ones), so that constraints gathered from several
// modules read the same in whatever order the modules gave them.
func (cs Constraints) String() string {
	sorted := append(Constraints(nil), cs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if c := sorted[i].Version.Compare(sorted[j].Version); c != 0 {
			return c < 0
		}
		return sorted[i].opRank() < sorted[j].opRank()
	})
	var b strings.Builder
	for i, c := range sorted {
		if i > 0 {
			b.WriteString(", ")
		}
		if c.Op != "=" {
			b.WriteString(c.Op + " ")
		}
		if c.Op == "~>" && c.Parts < 3 {
			fmt.Fprintf(&b, "%d.%d", c.Version.Major, c.Version.Minor)
		} else {
			b.WriteString(c.Version.String())
		}
	}
	return b.String()
}

// opRank orders constraints with the same boundary as OpenTofu writes
// them: >, >=, =, ~> with three parts, ~> with fewer, <=, <, !=.
func (c Constraint) opRank() int {
	switch c.Op {
	case ">":
		return 1
	case ">=":
		return 2
	case "=":
		return 3
	case "~>":
		if c.Parts == 3 {
			return 4
		}
		return 5
	case "<=":
		return 6
	case "<":
		return 7
	}
	return 8
}
