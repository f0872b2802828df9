package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// QueryView prints what rig query finds, as Terraform 1.14 prints it: a
// line per object, "list.TYPE.NAME   IDENTITY   DISPLAY NAME", the
// identities padded to one width per list block, and a warning naming
// the list blocks that found nothing. It implements plan.QueryHooks.
type QueryView struct {
	w     io.Writer
	color bool

	mu    sync.Mutex
	empty []string
}

var _ plan.QueryHooks = (*QueryView)(nil)

// NewQueryView returns a view writing to w.
func NewQueryView(w io.Writer, opts RenderOptions) *QueryView {
	return &QueryView{w: w, color: opts.Color}
}

// PreList prints nothing.
func (v *QueryView) PreList(plan.ListResult, cty.Value) {}

// PostList prints the objects one list block found.
func (v *QueryView) PostList(res plan.ListResult) {
	addr := res.Addr.String()
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(res.Objects) == 0 {
		v.empty = append(v.empty, addr)
		return
	}
	ids := make([]string, len(res.Objects))
	width := 0
	for i, o := range res.Objects {
		ids[i] = IdentityString(o.Identity)
		width = max(width, len(ids[i]))
	}
	var b strings.Builder
	for i, o := range res.Objects {
		fmt.Fprintf(&b, "%s   %-*s   %s\n", addr, width, ids[i], o.DisplayName)
	}
	_, _ = io.WriteString(v.w, b.String()+"\n")
}

// Done prints the warning about list blocks that found nothing.
func (v *QueryView) Done() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.empty) == 0 {
		return
	}
	_, _ = io.WriteString(v.w, colorize(fmt.Sprintf("[bold][yellow]Warning:[reset][bold] list block(s) [%s] returned 0 results.[reset]\n", strings.Join(v.empty, ", ")), v.color))
}

// IdentityString shows an identity on one line: its attributes in name
// order, "name=value" separated by commas.
func IdentityString(id cty.Value) string {
	if id == cty.NilVal || id.IsNull() {
		return "<null>"
	}
	if !id.IsWhollyKnown() {
		return "<unknown>"
	}
	m := id.AsValueMap()
	if len(m) == 0 {
		return "<empty>"
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + "=" + scalarString(m[name])
	}
	return strings.Join(parts, ",")
}

// scalarString shows one identity attribute's value.
func scalarString(v cty.Value) string {
	switch {
	case v.IsNull():
		return "<null>"
	case v.IsMarked():
		return "<sensitive>"
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return "<invalid>"
	}
	return string(b)
}

// QueryJSONView writes what rig query finds as the -json stream
// messages Terraform 1.14 writes: list_start, list_resource_found (one
// per object, with the generated configuration when there is one) and
// list_complete. It implements plan.QueryHooks.
type QueryJSONView struct {
	View *JSONView
	// Generated holds, by list block instance address, the generated resource and
	// import blocks of each object found, in order; nil without
	// generation.
	Generated map[string][]plan.GeneratedQueryResource
}

var _ plan.QueryHooks = (*QueryJSONView)(nil)

// PreList writes list_start.
func (v *QueryJSONView) PreList(res plan.ListResult, input cty.Value) {
	addr := res.Addr.String()
	// The config's sensitive values are left out and named, where
	// Terraform names them and writes them anyway.
	fields, sensitive := redactedFields(input, nil)
	start := map[string]any{"address": addr, "resource_type": res.List.Type, "input_config": fields}
	if len(sensitive) > 0 {
		start["sensitive_attribute_paths"] = sensitive
	}
	v.View.emit("info", addr+": Starting query...", "list_start", map[string]any{"list_start": start})
}

// PostList writes list_resource_found for each object, then list_complete.
func (v *QueryJSONView) PostList(res plan.ListResult) {
	l := res.List
	addr := res.Addr.String()
	gen := v.Generated[addr]
	for i, o := range res.Objects {
		found := map[string]any{
			"address": addr, "display_name": o.DisplayName, "identity": objectFields(o.Identity),
			"identity_version": res.Schema.IdentityVersion, "resource_type": l.Type,
		}
		if o.Resource != cty.NilVal {
			// The object's sensitive attributes are left out and named:
			// Terraform writes them, rig never prints a secret.
			fields, sensitive := redactedFields(o.Resource, res.Schema.Block)
			found["resource_object"] = fields
			if len(sensitive) > 0 {
				found["sensitive_attribute_paths"] = sensitive
			}
		}
		if i < len(gen) {
			found["config"], found["import_config"] = string(gen[i].Config), string(gen[i].Import)
		}
		v.View.emit("info", addr+": Result found", "list_resource_found", map[string]any{"list_resource_found": found})
	}
	v.View.emit("info", addr+": List complete", "list_complete", map[string]any{"list_complete": map[string]any{
		"address": addr, "resource_type": l.Type, "total": len(res.Objects),
	}})
}

// objectFields is an object's attributes as JSON, by name; nil for null.
func objectFields(v cty.Value) map[string]json.RawMessage {
	if v == cty.NilVal || v.IsNull() || !v.Type().IsObjectType() {
		return nil
	}
	v, _ = v.UnmarkDeep()
	out := map[string]json.RawMessage{}
	for name, av := range v.AsValueMap() {
		b, err := ctyjson.Marshal(cty.UnknownAsNull(av), av.Type())
		if err != nil {
			continue
		}
		out[name] = b
	}
	return out
}
