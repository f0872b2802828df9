package workdir

import (
	"encoding/json"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// ListInstances returns the instances s records, in its order, as
// `state list` selects them: those filters name (an instance, its
// resource, or a module prefix; all without filters) and, unless id is
// "", whose current object's id attribute is id.
func ListInstances(s *state.State, filters []string, id string) []addrs.AbsResourceInstance {
	seen := map[addrs.AbsResourceInstance]bool{}
	var out []addrs.AbsResourceInstance
	for _, o := range s.Objects() {
		if seen[o.Instance] {
			continue
		}
		seen[o.Instance] = true
		addr := o.Instance.String()
		if len(filters) > 0 && !matchesAny(addr, o.Instance.ContainingResource().String(), filters) {
			continue
		}
		if id != "" && !hasID(s, o.Instance, id) {
			continue
		}
		out = append(out, o.Instance)
	}
	return out
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

// matchesAny reports whether an instance (or its resource) is one of
// filters, or within a module one of them names.
func matchesAny(instance, resource string, filters []string) bool {
	for _, f := range filters {
		if instance == f || resource == f || strings.HasPrefix(instance, f+".") {
			return true
		}
	}
	return false
}
