package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TargetKind says what a Target names.
type TargetKind uint8

const (
	// ModuleTarget names a module instance, or every instance of a module
	// call when its last step has no key: module.a, module.a["k"].
	ModuleTarget TargetKind = iota + 1
	// ResourceTarget names a resource, every instance of it: aws_x.y.
	ResourceTarget
	// InstanceTarget names one resource instance: aws_x.y[0].
	InstanceTarget
)

// String names the kind: "module", "resource" or "instance".
func (k TargetKind) String() string {
	switch k {
	case ModuleTarget:
		return "module"
	case ResourceTarget:
		return "resource"
	case InstanceTarget:
		return "instance"
	}
	return fmt.Sprintf("TargetKind(%d)", uint8(k))
}

// Target is an address -target and -exclude accept. It is a comparable value.
type Target struct {
	Kind TargetKind
	// Module is the module instance named (ModuleTarget) or the one
	// holding the resource.
	Module ModuleInstance
	// Resource is the resource named; zero for a ModuleTarget.
	Resource Resource
	// Key is the instance key of an InstanceTarget.
	Key InstanceKey
}

// ParseTargetStr parses a target address as a user types it:
// module.a, module.a["k"].aws_x.y, aws_x.y[0], data.x.y.
func ParseTargetStr(s string) (Target, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return Target{}, fmt.Errorf("invalid target address %q: %s", s, diags[0].Summary)
	}
	t, err := ParseTarget(trav)
	if err != nil {
		return Target{}, fmt.Errorf("invalid target address %q: %w", s, err)
	}
	return t, nil
}

// ParseTarget parses a traversal written in configuration (a test file's
// plan_options target or an override's target) into a target address.
func ParseTarget(trav hcl.Traversal) (Target, error) {
	mod, rest, err := parseModulePrefix(trav)
	if err != nil {
		return Target{}, err
	}
	if len(rest) == 0 {
		if mod.IsRoot() {
			return Target{}, fmt.Errorf("a resource or module address is required")
		}
		return Target{Kind: ModuleTarget, Module: mod}, nil
	}
	ri, rest, err := parseResourceInstance(rest)
	if err != nil {
		return Target{}, err
	}
	if len(rest) != 0 {
		return Target{}, fmt.Errorf("unexpected extra operators after address")
	}
	t := Target{Kind: ResourceTarget, Module: mod, Resource: ri.Resource}
	if !ri.Key.IsNone() {
		t.Kind, t.Key = InstanceTarget, ri.Key
	}
	return t, nil
}

// String returns the address in user syntax.
func (t Target) String() string {
	switch t.Kind {
	case ModuleTarget:
		return t.Module.String()
	case ResourceTarget:
		return AbsResource{Module: t.Module, Resource: t.Resource}.String()
	default:
		return AbsResourceInstance{Module: t.Module, Resource: ResourceInstance{Resource: t.Resource, Key: t.Key}}.String()
	}
}

// ContainsInstance reports whether addr is t or inside it.
func (t Target) ContainsInstance(addr AbsResourceInstance) bool {
	switch t.Kind {
	case ModuleTarget:
		return t.containsModule(addr.Module)
	case ResourceTarget:
		return addr.Module == t.Module && addr.Resource.Resource == t.Resource
	default:
		return addr.Module == t.Module && addr.Resource.Resource == t.Resource && addr.Resource.Key == t.Key
	}
}

// ContainsConfigResource reports whether some instance of resource r (a
// static address) may be in t.
func (t Target) ContainsConfigResource(r ConfigResource) bool {
	if t.Kind == ModuleTarget {
		return t.ContainsModule(r.Module)
	}
	return t.Module.Module() == r.Module && t.Resource == r.Resource
}

// ContainsModule reports whether some instance of module m (a static
// path) may be inside a ModuleTarget t.
func (t Target) ContainsModule(m Module) bool {
	if t.Kind != ModuleTarget {
		return false
	}
	tm := t.Module.Module()
	return tm == m || tm.isAncestorOf(m)
}

// containsModule reports whether module instance m is t's module or
// inside it; a last step without a key stands for every instance of
// the call.
func (t Target) containsModule(m ModuleInstance) bool {
	ts, ms := t.Module.Steps(), m.Steps()
	if len(ms) < len(ts) {
		return false
	}
	for i, st := range ts {
		if st.Name != ms[i].Name {
			return false
		}
		if i == len(ts)-1 && st.Key.IsNone() {
			return true
		}
		if st.Key != ms[i].Key {
			return false
		}
	}
	return true
}

// isAncestorOf reports whether m is a strict ancestor of o.
func (m Module) isAncestorOf(o Module) bool {
	for !o.IsRoot() {
		o, _ = o.Parent()
		if o == m {
			return true
		}
	}
	return false
}
