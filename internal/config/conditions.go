package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
)

// conditionSelfReferences reports the expressions of a resource's
// precondition or postcondition rule (kind) that name the resource r
// itself (a postcondition refers to its object as self), as OpenTofu
// reports them while loading the configuration.
func conditionSelfReferences(cr *CheckRule, kind string, r addrs.Resource) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, expr := range []hcl.Expression{cr.Condition, cr.ErrorMessage} {
		if expr == nil {
			continue
		}
		for _, t := range expr.Variables() {
			if namesResource(t, r) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference in " + kind,
					Detail:   fmt.Sprintf("Configuration for %s may not refer to itself.", r),
					Subject:  expr.Range().Ptr(),
				})
				break
			}
		}
	}
	return diags
}

// namesResource reports whether traversal t refers to resource r (or one
// of its instances): TYPE.NAME for a managed resource, data.TYPE.NAME for a
// data source.
func namesResource(t hcl.Traversal, r addrs.Resource) bool {
	steps := []string{r.Type, r.Name}
	switch r.Mode {
	case addrs.Data:
		steps = append([]string{"data"}, steps...)
	case addrs.Ephemeral:
		steps = append([]string{"ephemeral"}, steps...)
	}
	if len(t) < len(steps) || t.RootName() != steps[0] {
		return false
	}
	for i, want := range steps[1:] {
		if a, ok := t[i+1].(hcl.TraverseAttr); !ok || a.Name != want {
			return false
		}
	}
	return true
}

// validationReferences reports a variable validation rule whose condition
// does not refer to the variable name it validates: a validation may test
// only the incoming value (OpenTofu and Terraform refuse other conditions
// when loading the configuration).
func validationReferences(cr *CheckRule, name string) hcl.Diagnostics {
	if cr.Condition == nil {
		return nil
	}
	for _, t := range cr.Condition.Variables() {
		if len(t) >= 2 && t.RootName() == "var" {
			if a, ok := t[1].(hcl.TraverseAttr); ok && a.Name == name {
				return nil
			}
		}
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid variable validation condition",
		Detail:   fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", name, name),
		Subject:  cr.Condition.Range().Ptr(),
	}}
}
