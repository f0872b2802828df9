package command

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/diag"
)

// withoutRepeats returns the diagnostics of ds that earlier does not
// already hold (same severity, summary, detail, object and place): a
// warning the validation reported for a block is not reported again when
// the plan finds it on the block's instance.
func withoutRepeats(ds, earlier diag.Diagnostics) diag.Diagnostics {
	if len(earlier) == 0 || len(ds) == 0 {
		return ds
	}
	type key struct {
		severity                 diag.Severity
		summary, detail, address string
		subject                  hcl.Range
	}
	keyOf := func(d diag.Diagnostic) key {
		k := key{d.Severity, d.Summary, d.Detail, d.AddressText(), hcl.Range{}}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		return k
	}
	seen := make(map[key]bool, len(earlier))
	for _, d := range earlier {
		seen[keyOf(d)] = true
	}
	out := make(diag.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if !seen[keyOf(d)] {
			out = append(out, d)
		}
	}
	return out
}
