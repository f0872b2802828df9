package ui

import (
	"slices"

	"github.com/rig-iac/rig/internal/diag"
)

// SortDiagnostics returns ds in the order OpenTofu shows diagnostics
// (diag.CompareSource); diagnostics alike in that keep their order. ds is
// not modified.
func SortDiagnostics(ds diag.Diagnostics) diag.Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, diag.CompareSource)
	return out
}
