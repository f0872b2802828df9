package provider

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
)

// Redacted returns a copy of ds, a provider's diagnostics about an object,
// with every text of a sensitive value among vals (the marked
// configuration, prior or planned object the provider was given, without
// marks) replaced by "(sensitive value)": a provider may quote the values
// it is given, and never knows which are sensitive. ds is returned as it
// is when nothing needs replacing.
func Redacted(ds diag.Diagnostics, vals ...cty.Value) diag.Diagnostics {
	if len(ds) == 0 {
		return ds
	}
	var secrets []string
	for _, v := range vals {
		secrets = append(secrets, marks.Secrets(v)...)
	}
	if len(secrets) == 0 {
		return ds
	}
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Summary = marks.RedactText(d.Summary, secrets)
		d.Detail = marks.RedactText(d.Detail, secrets)
		out[i] = d
	}
	return out
}
