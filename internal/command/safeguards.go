package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// safeguardNames lists the settings safeguards reads, for the error about
// an unknown one.
const safeguardNames = "record_prevent_destroy and health_gate blocks"

// safeguards are rig.hcl's settings of what rig adds to keep objects safe:
//
//	record_prevent_destroy = true  # keep prevent_destroy with each object
type safeguards struct {
	// recordPreventDestroy records, with each object whose resource sets
	// lifecycle.prevent_destroy, where it was set (plan.Options).
	recordPreventDestroy bool
}

// attribute reads the safeguard setting name, reporting false when it is
// not one.
func (s *safeguards) attribute(name string, attr *hclsyntax.Attribute, v cty.Value) (bool, diag.Diagnostics) {
	switch name {
	case "record_prevent_destroy":
		if v.Type() != cty.Bool || v.IsNull() {
			return true, diag.Diagnostics{diag.At(attr.Expr.Range(), "Invalid record_prevent_destroy",
				"record_prevent_destroy must be true or false: whether rig records lifecycle.prevent_destroy with each object it protects, so that the protection outlives the resource block.")}
		}
		s.recordPreventDestroy = v.True()
		return true, nil
	}
	return false, nil
}

// block reads a block of rig.hcl.
func (s *safeguards) block(b *hclsyntax.Block) diag.Diagnostics {
	return diag.Diagnostics{diag.At(b.TypeRange, "Unsupported block type", fmt.Sprintf("%s has no block type %q; it knows %s.", settingsFile, b.Type, safeguardNames))}
}
