package workdir

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
)

// RemoveObjects removes from s every object the targets name (state rm),
// unless dry, and returns the instances they belong to, in the order
// found. As in OpenTofu, a target that names no object is passed over;
// when none names one, that is an error.
func RemoveObjects(s *state.State, targets []StateTarget, dry bool) ([]addrs.AbsResourceInstance, diag.Diagnostics) {
	var removed []addrs.ObjectAddr
	for _, t := range targets {
		for _, oa := range s.Objects() {
			if t.Matches(oa) {
				removed = append(removed, oa)
			}
		}
	}
	if len(removed) == 0 {
		return nil, diag.Diagnostics{NoStateMatch()}
	}
	var instances []addrs.AbsResourceInstance
	seen := map[addrs.AbsResourceInstance]bool{}
	for _, oa := range removed {
		if !seen[oa.Instance] {
			instances = append(instances, oa.Instance)
		}
		seen[oa.Instance] = true
	}
	if !dry {
		for _, oa := range removed {
			s.SetObject(oa, nil, addrs.AbsProviderConfig{})
		}
	}
	return instances, nil
}

// SetTainted marks the current object of instance addr in s tainted (the
// next plan replaces it) or, with !tainted, in good standing again, and
// reports whether it changed s. A missing instance is an error, or only a
// warning with allowMissing; untainting an object that is not tainted is
// an error.
func SetTainted(s *state.State, addr addrs.AbsResourceInstance, tainted, allowMissing bool) (bool, diag.Diagnostics) {
	oa := addrs.ObjectAddr{Instance: addr}
	obj := s.Object(oa)
	if obj == nil {
		if allowMissing {
			return false, diag.Diagnostics{{Severity: diag.Warning, Summary: "No such resource instance",
				Detail: fmt.Sprintf("Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr)}}
		}
		verb := "tainted"
		if !tainted {
			verb = "untainted"
		}
		return false, diag.Diagnostics{diag.Errorf("No such resource instance",
			"There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"rig apply\" once to create the corresponding instance(s) before they can be %s.", addr, verb)}
	}
	if !tainted && obj.Status != state.Tainted {
		return false, diag.Diagnostics{diag.Errorf("Resource instance is not tainted", "Resource instance %s is not currently tainted, and so it cannot be untainted.", addr)}
	}
	cp := *obj
	cp.Status = state.Ready
	if tainted {
		cp.Status = state.Tainted
	}
	s.SetObject(oa, &cp, s.ObjectProvider(addr))
	return true, nil
}

// Unprotect lifts the prevent_destroy s records for the current object of
// instance addr (rig.hcl's record_prevent_destroy), so that the next plan
// may destroy it, and returns where it had been set.
func Unprotect(s *state.State, addr addrs.AbsResourceInstance) (string, diag.Diagnostics) {
	oa := addrs.ObjectAddr{Instance: addr}
	obj := s.Object(oa)
	if obj == nil {
		return "", diag.Diagnostics{diag.Errorf("No such resource instance",
			"There is no resource instance in the state with the address %s.", addr)}
	}
	if obj.PreventDestroy == "" {
		return "", diag.Diagnostics{diag.Errorf("Resource instance is not protected",
			"The state records no prevent_destroy for %s, so there is nothing to lift.", addr)}
	}
	cp := *obj
	cp.PreventDestroy = ""
	s.SetObject(oa, &cp, s.ObjectProvider(addr))
	return obj.PreventDestroy, nil
}

// ResourcesOfProvider returns the resources of s whose provider is p, in
// address order (state replace-provider).
func ResourcesOfProvider(s *state.State, p addrs.Provider) []*state.Resource {
	var out []*state.Resource
	for _, ra := range s.ResourceAddrs() {
		if r := s.Resources[ra]; r.ProviderConfig.Provider == p {
			out = append(out, r)
		}
	}
	return out
}
