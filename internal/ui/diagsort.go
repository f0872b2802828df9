package ui

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// SortDiagnostics returns ds in the order OpenTofu shows diagnostics:
// warnings before errors; within each, those about no source range first,
// then by file (fewer directories first, then by name) and position in
// it; diagnostics alike in all that keep their order. ds is not modified.
func SortDiagnostics(ds diag.Diagnostics) diag.Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, compareDiagnostics)
	return out
}

func compareDiagnostics(a, b diag.Diagnostic) int {
	if a.Severity != b.Severity {
		if a.Severity == diag.Warning {
			return -1
		}
		if b.Severity == diag.Warning {
			return 1
		}
		return 0
	}
	as, bs := a.Subject, b.Subject
	switch {
	case (as == nil) != (bs == nil):
		if as == nil {
			return -1
		}
		return 1
	case as == nil:
		return 0
	}
	if as.Filename != bs.Filename {
		sep := string(filepath.Separator)
		if c := cmp.Compare(strings.Count(as.Filename, sep), strings.Count(bs.Filename, sep)); c != 0 {
			return c
		}
		return cmp.Compare(as.Filename, bs.Filename)
	}
	if c := cmp.Compare(as.Start.Byte, bs.Start.Byte); c != 0 {
		return c
	}
	return cmp.Compare(as.End.Byte, bs.End.Byte)
}
