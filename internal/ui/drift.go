package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// DriftedAttribute is one attribute of an object that changed outside rig:
// its path and its values before and after, with their marks.
type DriftedAttribute struct {
	Path          cty.Path
	Before, After cty.Value
}

// Sensitive reports whether either value is marked sensitive.
func (a DriftedAttribute) Sensitive() bool {
	return marks.Contains(a.Before) || marks.Contains(a.After)
}

// DriftedAttributes lists the attributes whose values differ between the
// recorded object (c.Before) and the one read back (c.After), as deep as
// objects and maps nest and lists keep their length; a list or set that
// changed length or members is one attribute. None for a deleted object.
func DriftedAttributes(c *plan.ResourceInstanceChange) []DriftedAttribute {
	if c.After.IsNull() {
		return nil
	}
	var out []DriftedAttribute
	driftWalk(nil, c.Before, c.After, &out)
	return out
}

func driftWalk(path cty.Path, before, after cty.Value, out *[]DriftedAttribute) {
	b, _ := before.UnmarkDeep()
	a, _ := after.UnmarkDeep()
	if b.RawEquals(a) {
		return
	}
	emit := func() {
		*out = append(*out, DriftedAttribute{Path: append(cty.Path(nil), path...), Before: before, After: after})
	}
	if marks.Contains(before) && !b.Type().IsObjectType() || b.IsNull() || a.IsNull() || !b.IsKnown() || !a.IsKnown() || !b.Type().Equals(a.Type()) {
		emit()
		return
	}
	bu, _ := before.Unmark()
	au, _ := after.Unmark()
	ty := b.Type()
	switch {
	case ty.IsObjectType():
		names := make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			driftWalk(path.GetAttr(name), bu.GetAttr(name), au.GetAttr(name), out)
		}
	case ty.IsMapType():
		keys := map[string]bool{}
		for k := range b.AsValueMap() {
			keys[k] = true
		}
		for k := range a.AsValueMap() {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		null := cty.NullVal(ty.ElementType())
		for _, k := range sorted {
			kv := cty.StringVal(k)
			bv, av := null, null
			if b.HasIndex(kv).True() {
				bv = bu.Index(kv)
			}
			if a.HasIndex(kv).True() {
				av = au.Index(kv)
			}
			driftWalk(path.Index(kv), bv, av, out)
		}
	case (ty.IsListType() || ty.IsTupleType()) && b.LengthInt() == a.LengthInt():
		for i := range b.LengthInt() {
			iv := cty.NumberIntVal(int64(i))
			driftWalk(path.Index(iv), bu.Index(iv), au.Index(iv), out)
		}
	default:
		emit()
	}
}

// DriftReport is what rig drift found: the objects changed outside rig,
// how many objects it read, and the conditions that failed against them.
type DriftReport struct {
	Drift []*plan.ResourceInstanceChange
	// Objects is how many recorded objects were read back.
	Objects int
	// FailedConditions counts the checkable objects (resource instances,
	// check blocks, outputs) whose conditions failed or errored.
	FailedConditions int
}

// RenderDrift writes a drift report: each object changed outside rig with
// its changed attributes ("ATTR: BEFORE → AFTER"), or that it was deleted,
// the conditions that failed, and how to accept the changes.
func RenderDrift(w io.Writer, r DriftReport, opts RenderOptions) {
	bold := func(s string) string { return colorize("[bold]"+s+"[reset]", opts.Color) }
	if len(r.Drift) == 0 {
		fmt.Fprintf(w, "\n%s %d %s read back, none changed outside rig.\n", bold("No drift."), r.Objects, plural(r.Objects, "object", "objects"))
	} else {
		fmt.Fprintf(w, "\n%s %d of %d %s changed outside rig:\n", bold("Drift detected."), len(r.Drift), r.Objects, plural(r.Objects, "object", "objects"))
		for _, c := range r.Drift {
			if c.After.IsNull() {
				fmt.Fprintf(w, "\n  # %s has been deleted\n", c.ObjectAddr())
				continue
			}
			fmt.Fprintf(w, "\n  # %s has changed\n", c.ObjectAddr())
			for _, a := range DriftedAttributes(c) {
				fmt.Fprintf(w, "      %s: %s → %s\n", driftPath(a.Path), driftValue(a.Before, opts), driftValue(a.After, opts))
			}
		}
	}
	if r.FailedConditions > 0 {
		fmt.Fprintf(w, "\n%d %s failed against the objects as read (see the warnings).\n", r.FailedConditions, plural(r.FailedConditions, "checked object has conditions that", "checked objects have conditions that"))
	}
	if len(r.Drift) > 0 {
		fmt.Fprintf(w, "\nTo record these changes in the state without changing any object, run:\n    rig apply -refresh-only\nTo undo them, run \"rig apply\".\n")
	}
}

func driftPath(p cty.Path) string {
	if len(p) == 0 {
		return "(object)"
	}
	return diag.FormatPath(p)
}

func driftValue(v cty.Value, opts RenderOptions) string {
	if v.IsNull() {
		return "null"
	}
	return opts.FormatValue(v, 6)
}

// DriftAttribute sends a "drift_attribute" message (rig's own type, which
// other readers skip) for one attribute of an object changed outside rig:
// its path and values as JSON, the values left out when sensitive.
func (v *JSONView) DriftAttribute(c *plan.ResourceInstanceChange, a DriftedAttribute) {
	j := map[string]any{"resource": resourceToJSON(c.Addr), "path": driftPath(a.Path)}
	if c.Deposed != "" {
		j["deposed"] = string(c.Deposed)
	}
	if a.Sensitive() {
		j["sensitive"] = true
	} else {
		j["before"], j["after"] = valueJSON(a.Before), valueJSON(a.After)
	}
	v.emit("info", fmt.Sprintf("%s: %s changed outside rig", c.ObjectAddr(), driftPath(a.Path)), "drift_attribute", map[string]any{"drift_attribute": j})
}

// DriftSummary sends a "drift_summary" message: how many objects were read
// back, how many had changed, and how many checked objects' conditions
// failed.
func (v *JSONView) DriftSummary(r DriftReport) {
	msg := fmt.Sprintf("Drift: %d of %d objects changed outside rig", len(r.Drift), r.Objects)
	if len(r.Drift) == 0 {
		msg = fmt.Sprintf("No drift: %d objects read back", r.Objects)
	}
	v.emit("info", msg, "drift_summary", map[string]any{"drift_summary": map[string]any{
		"objects": r.Objects, "drifted": len(r.Drift), "failed_conditions": r.FailedConditions}})
}

func valueJSON(v cty.Value) json.RawMessage {
	v, _ = v.UnmarkDeep()
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
