package lang

import "github.com/hashicorp/hcl/v2"

// SharedContext is an evaluation context built once for the references of
// many bodies that a scope evaluates with the same values (validation,
// where every body of a module sees the same unknown values): it holds the
// value of every reference any of them makes, so that each body is
// evaluated without a context of its own. Evaluating an expression in a
// context that also holds what it does not refer to gives the same value
// and diagnostics.
type SharedContext struct {
	ctx *hcl.EvalContext
}

// NewSharedContext builds the shared context of refs, the references of
// the bodies s will evaluate with it, or returns nil when a reference
// depends on the instance (count, each, self) or reading the references
// reports anything: each body is then given its own context, and its own
// diagnostics.
func (s *Scope) NewSharedContext(refs []*Reference) *SharedContext {
	if !InstanceIndependent(refs) {
		return nil
	}
	ctx, diags := s.EvalContext(refs)
	if len(diags) > 0 {
		return nil
	}
	return &SharedContext{ctx: ctx}
}

// InstanceIndependent reports whether refs can be read from a shared
// context: none of them depends on the instance (count, each, self).
func InstanceIndependent(refs []*Reference) bool {
	for _, r := range refs {
		switch r.Kind {
		case CountIndex, EachKey, EachValue, Self:
			return false
		}
	}
	return true
}
