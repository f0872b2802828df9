package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// Address is what `rig explain` was asked about: a module, a resource, a
// resource instance, or one deposed object of an instance.
type Address struct {
	Target addrs.Target
	// Deposed is set for a deposed object: ADDR[deposed=KEY], or
	// "ADDR (deposed object KEY)" as plans print it.
	Deposed addrs.DeposedKey
	// IsAction is set for an action address (action.TYPE.NAME, with an
	// instance key or not), which Action holds; Target is then zero.
	IsAction bool
	Action   addrs.AbsActionInstance
}

// String returns the address as ParseAddress accepts it.
func (a Address) String() string {
	if a.IsAction {
		return a.Action.String()
	}
	if a.Deposed != addrs.NotDeposed {
		return a.Target.String() + "[deposed=" + string(a.Deposed) + "]"
	}
	return a.Target.String()
}

// ParseAddress parses an address as users type it: module.x,
// terraform_data.a, terraform_data.a[0], terraform_data.a[deposed=KEY] or
// terraform_data.a (deposed object KEY).
func ParseAddress(s string) (Address, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "action.") || strings.Contains(s, ".action.") {
		if ai, err := addrs.ParseAbsActionInstanceStr(s); err == nil {
			return Address{IsAction: true, Action: ai}, nil
		} else if strings.HasPrefix(s, "action.") {
			return Address{}, err
		}
	}
	var dk addrs.DeposedKey
	if rest, ok := strings.CutSuffix(s, ")"); ok {
		if i := strings.LastIndex(rest, " (deposed object "); i >= 0 {
			dk = addrs.DeposedKey(rest[i+len(" (deposed object "):])
			s = rest[:i]
		}
	} else if rest, ok := strings.CutSuffix(s, "]"); ok {
		if i := strings.LastIndex(rest, "[deposed="); i >= 0 {
			dk = addrs.DeposedKey(strings.Trim(rest[i+len("[deposed="):], `"`))
			s = rest[:i]
		}
	}
	if dk == "" && strings.Contains(s, "deposed") {
		return Address{}, fmt.Errorf("invalid address %q: a deposed object is written ADDR[deposed=KEY]", s)
	}
	t, err := addrs.ParseTargetStr(s)
	if err != nil {
		return Address{}, err
	}
	if dk != addrs.NotDeposed && t.Kind == addrs.ModuleTarget {
		return Address{}, fmt.Errorf("invalid address %q: only a resource instance has deposed objects", s)
	}
	return Address{Target: t, Deposed: dk}, nil
}

// matches reports whether change c concerns an object a names.
func (a Address) matches(c *plan.ResourceInstanceChange) bool {
	if !a.Target.ContainsInstance(c.Addr) {
		return false
	}
	return a.Deposed == addrs.NotDeposed || c.Deposed == a.Deposed
}

// Candidates returns every address the plan can explain, for suggesting
// one near a mistyped address: each object, resource and module instance
// with a change, sorted.
func Candidates(p *plan.Plan) []string {
	seen := map[string]bool{}
	for _, c := range p.Changes {
		seen[c.ObjectAddr().String()] = true
		if c.Deposed != addrs.NotDeposed {
			seen[Address{Target: instanceTarget(c.Addr), Deposed: c.Deposed}.String()] = true
		}
		seen[c.Addr.String()] = true
		seen[c.Addr.ContainingResource().String()] = true
		for m := c.Addr.Module; !m.IsRoot(); m, _ = m.Parent() {
			seen[m.String()] = true
		}
	}
	for _, ai := range p.ActionInvocations {
		seen[ai.Addr.String()] = true
		seen[ai.Addr.ConfigString()] = true
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Nearest returns at most n addresses the plan can explain that are
// nearest to a, which names none of its objects: those fewest edits away,
// when that is a few (a mistyped name or key); else the resources of a's
// resource type; sorted; nil when there is neither.
func Nearest(p *plan.Plan, a Address, n int) []string {
	given := a.String()
	if near := diag.Nearest(given, Candidates(p), max(3, len(given)/6), n); len(near) > 0 {
		return near
	}
	if a.Target.Kind == addrs.ModuleTarget || a.IsAction {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range p.Changes {
		r := c.Addr.ContainingResource()
		if r.Resource.Mode == a.Target.Resource.Mode && r.Resource.Type == a.Target.Resource.Type && !seen[r.String()] {
			seen[r.String()] = true
			out = append(out, r.String())
		}
	}
	slices.Sort(out)
	return out[:min(n, len(out))]
}

func instanceTarget(a addrs.AbsResourceInstance) addrs.Target {
	t := addrs.Target{Kind: addrs.InstanceTarget, Module: a.Module, Resource: a.Resource.Resource, Key: a.Resource.Key}
	if a.Resource.Key == addrs.NoKey {
		t.Kind = addrs.ResourceTarget
	}
	return t
}

// DidYouMean names the addresses of p nearest to addr (Nearest), which names none
// of its objects: " Did you mean "X"?" for one, a list for several, "" for
// none.
func DidYouMean(p *plan.Plan, addr Address) string {
	near := Nearest(p, addr, 5)
	switch len(near) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" Did you mean %q?", near[0])
	}
	return "\n\nThe nearest addresses in the plan are:\n  " + strings.Join(near, "\n  ")
}
