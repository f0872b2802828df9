package workdir

import (
	"encoding/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
)

// ListInstances returns the instances s records, in its order, as
// `state list` selects them: those filters name (an instance, every
// instance of a resource, or of a module and the modules in it; all
// without filters) and, unless id is "", whose current object's id
// attribute is id; with filters, the instances of each in turn. As in
// OpenTofu, a filter that is not an address, or names what s does not
// hold, is an error.
func ListInstances(s *state.State, filters []string, id string) ([]addrs.AbsResourceInstance, diag.Diagnostics) {
	var ds diag.Diagnostics
	targets := make([]addrs.Target, 0, len(filters))
	for _, f := range filters {
		t, err := addrs.ParseTargetStr(f)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid address", "%s", diag.Sentence(err.Error())))
			continue
		}
		targets = append(targets, t)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	if len(targets) == 0 {
		return selectInstances(s, nil, id), nil
	}
	// As OpenTofu: the instances of each filter in turn, so that one
	// named twice is listed twice.
	var out []addrs.AbsResourceInstance
	for _, t := range targets {
		insts := selectInstances(s, &t, id)
		if len(insts) == 0 && len(selectInstances(s, &t, "")) == 0 {
			ds = ds.Append(unknownInState(t))
		}
		out = append(out, insts...)
	}
	return out, ds
}

// selectInstances returns the instances of s in t (all when t is nil), in
// the state's order, and, unless id is "", whose current object's id
// attribute is id.
func selectInstances(s *state.State, t *addrs.Target, id string) []addrs.AbsResourceInstance {
	seen := map[addrs.AbsResourceInstance]bool{}
	var out []addrs.AbsResourceInstance
	for _, o := range s.Objects() {
		if seen[o.Instance] {
			continue
		}
		seen[o.Instance] = true
		if (t != nil && !t.ContainsInstance(o.Instance)) || (id != "" && !hasID(s, o.Instance, id)) {
			continue
		}
		out = append(out, o.Instance)
	}
	return out
}

// unknownInState is OpenTofu's error for a state command's address that
// names nothing the state holds.
func unknownInState(t addrs.Target) diag.Diagnostic {
	switch t.Kind {
	case addrs.ModuleTarget:
		return diag.Errorf("Unknown module", "The current state contains no module at %s. If you've just added this module to the configuration, you must run \"rig apply\" first to create the module's entry in the state.", t)
	case addrs.ResourceTarget:
		return diag.Errorf("Unknown resource", "The current state contains no resource %s. If you've just added this resource to the configuration, you must run \"rig apply\" first to create the resource's entry in the state.", t)
	}
	return diag.Errorf("Unknown resource instance", "The current state contains no resource instance %s. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run \"rig apply\" first to update the resource's entry in the state.", t)
}

// hasID reports whether the current object of inst has the id attribute
// id, as `state list -id` selects instances.
func hasID(s *state.State, inst addrs.AbsResourceInstance, id string) bool {
	obj := s.Object(addrs.ObjectAddr{Instance: inst})
	if obj == nil || len(obj.AttrsJSON) == 0 {
		return false
	}
	var attrs struct {
		ID any `json:"id"`
	}
	if err := json.Unmarshal(obj.AttrsJSON, &attrs); err != nil {
		return false
	}
	got, ok := attrs.ID.(string)
	return ok && got == id
}
