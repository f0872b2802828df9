package diag

import (
	"cmp"
	"slices"
	"strings"
)

// SortBySource orders ds as OpenTofu orders the diagnostics it prints
// (CompareSource); ties keep a fixed order by summary and detail, so that
// a provider that reports several problems in a random order is always
// shown alike. It sorts ds in place and returns it.
func SortBySource(ds Diagnostics) Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(CompareSource(a, b), strings.Compare(a.Summary, b.Summary), strings.Compare(a.Detail, b.Detail))
	})
	return ds
}

// CompareSource orders two diagnostics as OpenTofu shows them: warnings
// before errors, those without a source range before those with one, then
// by file (fewer path segments first, then by name), start and end. It
// returns 0 for diagnostics alike in all that.
func CompareSource(a, b Diagnostic) int {
	if a.Severity != b.Severity {
		if a.Severity == Warning {
			return -1
		}
		if b.Severity == Warning {
			return 1
		}
	}
	if (a.Subject == nil) != (b.Subject == nil) {
		if a.Subject == nil {
			return -1
		}
		return 1
	}
	if a.Subject == nil {
		return 0
	}
	as, bs := a.Subject, b.Subject
	if as.Filename != bs.Filename {
		if c := cmp.Compare(strings.Count(as.Filename, "/"), strings.Count(bs.Filename, "/")); c != 0 {
			return c
		}
		return strings.Compare(as.Filename, bs.Filename)
	}
	return cmp.Or(cmp.Compare(as.Start.Byte, bs.Start.Byte), cmp.Compare(as.End.Byte, bs.End.Byte))
}
