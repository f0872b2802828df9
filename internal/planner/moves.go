package planner

import (
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
)

// moveStatement is a moved block, or a move OpenTofu implies, in the
// module (static path) that declares it.
type moveStatement struct {
	module   addrs.Module
	from, to *config.MoveEndpoint
	decl     *config.Moved // nil for an implied move
	// exact makes a module call without a key stand for its instance
	// without a key only (implied moves), rather than for every instance.
	exact bool
}

// applyMoves applies the configuration's moved blocks and then the moves
// implied by adding or removing count to the objects of prior, as OpenTofu
// does before planning (refactoring.ApplyMoves): every object at a
// statement's source moves to its destination, in every instance of the
// declaring module; chains (a to b, b to c) move an object along the whole
// chain. A move whose destination already holds objects is not made, with
// a warning naming it (the objects left behind are then deleted). It
// returns the moved state (prior itself when nothing moves: prior is never
// modified) and, for each instance that moved, where it was before.
func applyMoves(cfg *config.Module, prior *state.State) (*state.State, map[addrs.AbsResourceInstance]addrs.AbsResourceInstance, diag.Diagnostics) {
	stmts, ds := moveStatements(cfg)
	if ds.HasErrors() {
		return prior, nil, ds
	}
	stmts = append(stmts, impliedModuleMoves(cfg, prior)...)
	stmts = append(stmts, impliedMoveStatements(cfg, prior)...)
	if len(stmts) == 0 {
		return prior, nil, ds
	}
	moved := map[addrs.AbsResourceInstance]addrs.AbsResourceInstance{}
	var out *state.State
	blocked := map[string]bool{}
	var blockedList []string
	// Each pass moves what can move; a chain of n moves takes n passes.
	for range len(stmts) + 1 {
		progress := false
		for _, st := range stmts {
			cur := prior
			if out != nil {
				cur = out
			}
			for _, ra := range cur.ResourceAddrs() {
				dst, ok := st.destination(ra)
				if !ok {
					continue
				}
				// The keys as they are now; moving changes the map.
				for _, k := range cur.Resources[ra].InstanceKeys() {
					from := ra.Instance(k)
					to, ok := st.instanceDestination(from, dst)
					if !ok {
						continue
					}
					if cur.Instance(to).HasObjects() {
						if line := fmt.Sprintf("\n  - %s could not move to %s", from, to); !blocked[line] {
							blocked[line] = true
							blockedList = append(blockedList, line)
						}
						continue
					}
					if out == nil {
						out = prior.DeepCopy()
						cur = out
					}
					moveInstance(out, from, to)
					orig, seen := moved[from]
					if !seen {
						orig = from
					}
					delete(moved, from)
					moved[to] = orig
					progress = true
				}
			}
		}
		if !progress {
			break
		}
	}
	for to, from := range moved {
		if to == from {
			delete(moved, to)
		}
	}
	if len(blockedList) > 0 {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Unresolved resource instance address changes",
			Detail: "rig tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:" +
				strings.Join(blockedList, "") +
				"\n\nrig has planned to destroy these objects. If rig's proposed changes aren't appropriate, you must first resolve the conflicts using the \"rig state\" subcommands and then create a new plan."})
	}
	if out == nil {
		return prior, moved, ds
	}
	return out, moved, ds
}

// moveInstance moves every object of an instance, current and deposed, to
// another address, keeping its provider configuration.
func moveInstance(s *state.State, from, to addrs.AbsResourceInstance) {
	pc := s.ObjectProvider(from)
	inst := s.Instance(from)
	objs := map[addrs.DeposedKey]*state.Object{addrs.NotDeposed: inst.Current}
	for dk, o := range inst.Deposed {
		objs[dk] = o
	}
	for dk, o := range objs {
		if o == nil {
			continue
		}
		s.SetObject(addrs.ObjectAddr{Instance: from, Deposed: dk}, nil, pc)
		s.SetObject(addrs.ObjectAddr{Instance: to, Deposed: dk}, o, pc)
	}
}

// moduleInstancePrefix returns the instance of static module path m that
// module instance mi is in (mi itself or an ancestor), if any.
func moduleInstancePrefix(mi addrs.ModuleInstance, m addrs.Module) (addrs.ModuleInstance, bool) {
	if m.IsRoot() {
		return addrs.RootModule, true
	}
	steps := mi.Steps()
	calls := m.Calls()
	if len(steps) < len(calls) {
		return "", false
	}
	prefix := addrs.RootModule
	for i, name := range calls {
		if steps[i].Name != name {
			return "", false
		}
		prefix = prefix.Child(name, steps[i].Key)
	}
	return prefix, true
}

// join appends a relative module instance path to a module instance.
func join(base, rel addrs.ModuleInstance) addrs.ModuleInstance {
	for _, st := range rel.Steps() {
		base = base.Child(st.Name, st.Key)
	}
	return base
}

// destination reports whether resource ra (in state) is moved by st, and
// returns the resource it moves to (instance keys aside).
func (st moveStatement) destination(ra addrs.AbsResource) (addrs.AbsResource, bool) {
	base, ok := moduleInstancePrefix(ra.Module, st.module)
	if !ok {
		return addrs.AbsResource{}, false
	}
	from, to := st.from, st.to
	if !from.IsModule() {
		if ra.Module != join(base, from.Module) || ra.Resource != from.Resource {
			return addrs.AbsResource{}, false
		}
		return addrs.AbsResource{Module: join(base, to.Module), Resource: to.Resource}, true
	}
	src := string(join(base, from.Module))
	rest, ok := strings.CutPrefix(string(ra.Module), src)
	switch {
	case !ok:
		return addrs.AbsResource{}, false
	case rest == "" || strings.HasPrefix(rest, "."):
	case strings.HasPrefix(rest, "[") && !strings.HasSuffix(src, "]") && !st.exact:
		// A module call without a key moves every instance of it.
	default:
		return addrs.AbsResource{}, false
	}
	mi, err := addrs.ParseModuleInstanceStr(string(join(base, to.Module)) + rest)
	if err != nil {
		return addrs.AbsResource{}, false
	}
	return addrs.AbsResource{Module: mi, Resource: ra.Resource}, true
}

// instanceDestination returns where instance from of a resource moved to
// dst goes: the destination key for an instance statement (which must
// name from's key), the same key otherwise.
func (st moveStatement) instanceDestination(from addrs.AbsResourceInstance, dst addrs.AbsResource) (addrs.AbsResourceInstance, bool) {
	if st.from.IsModule() || !st.from.KeyGiven {
		return dst.Instance(from.Resource.Key), true
	}
	if from.Resource.Key != st.from.Key {
		return addrs.AbsResourceInstance{}, false
	}
	return dst.Instance(st.to.Key), true
}

// moveStatements collects the moved blocks of every module, checking them
// against the configuration: the source must no longer be declared, and
// statements must not form a cycle.
func moveStatements(cfg *config.Module) ([]moveStatement, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []moveStatement
	for _, m := range cfg.AllModules() {
		next := map[string]string{}
		for _, mv := range m.Moved {
			out = append(out, moveStatement{module: m.Path, from: mv.From, to: mv.To, decl: mv})
			next[mv.From.String()] = mv.To.String()
			if rng, declared := declaredAt(m, mv.From); declared {
				ds = ds.Append(diag.At(mv.DeclRange, "Moved object still exists",
					fmt.Sprintf("This statement declares a move from %s, but that %s is still declared at %s.\n\nChange your configuration so that this %s will be declared as %s instead.", mv.From, kindOf(mv.From), rng, kindOf(mv.From), mv.To)))
			}
		}
		from, to := map[string]*config.Moved{}, map[string]*config.Moved{}
		for _, mv := range m.Moved {
			if prev := from[mv.From.String()]; prev != nil && prev.To.String() != mv.To.String() {
				ds = ds.Append(diag.At(mv.DeclRange, "Ambiguous move statements",
					fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s.\n\nEach item can move to only one destination address.", prev.DeclRange, mv.From, prev.To, mv.To)))
			}
			if prev := to[mv.To.String()]; prev != nil && prev.From.String() != mv.From.String() {
				ds = ds.Append(diag.At(mv.DeclRange, "Ambiguous move statements",
					fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there.\n\nEach item can have moved from only one source address.", prev.DeclRange, prev.From, mv.To, mv.From)))
			}
			from[mv.From.String()], to[mv.To.String()] = mv, mv
		}
		for _, mv := range m.Moved {
			seen := map[string]bool{}
			for at := mv.From.String(); next[at] != ""; at = next[at] {
				if seen[at] {
					ds = ds.Append(diag.At(mv.DeclRange, "Cyclic dependency in move statements",
						fmt.Sprintf("The moved block from %s to %s is part of a chain of moves that leads back to where it started. Remove the statement that closes the cycle.", mv.From, mv.To)))
					break
				}
				seen[at] = true
			}
		}
	}
	return out, ds
}

func kindOf(e *config.MoveEndpoint) string {
	switch {
	case e.IsModule():
		return "module call"
	case e.KeyGiven:
		return "resource instance"
	}
	return "resource"
}

// declaredAt reports whether the configuration of module m still declares
// the endpoint's object, and where: a resource, or a module call, as a
// whole. Instances of a resource or call with count or for_each are not
// checked (their keys are known only once expanded).
func declaredAt(m *config.Module, e *config.MoveEndpoint) (string, bool) {
	mod := m
	steps := e.Module.Steps()
	for i, st := range steps {
		if e.IsModule() && i == len(steps)-1 {
			call := mod.ModuleCalls[st.Name]
			if call == nil {
				return "", false
			}
			// An instance of a call with count or for_each may or may not be
			// one of its keys: that is known only once expanded.
			return call.DeclRange.String(), st.Key.IsNone()
		}
		mod = mod.Children[st.Name]
		if mod == nil {
			return "", false
		}
	}
	r := mod.ResourceByAddr(e.Resource)
	if r == nil {
		return "", false
	}
	if e.KeyGiven && (r.Count != nil || r.ForEach != nil || !e.Key.IsNone()) {
		// Whether the instance is one of the keys is known only once expanded.
		return "", false
	}
	return r.DeclRange.String(), true
}

// impliedMoveStatements returns the instance moves OpenTofu implies when
// count is added to or removed from a resource that already has an object
// (refactoring.ImpliedMoveStatements): a resource with count takes its
// no-key instance as [0], and one with neither count nor for_each takes [0]
// as its no-key instance.
func impliedMoveStatements(cfg *config.Module, prior *state.State) []moveStatement {
	var out []moveStatement
	seen := map[addrs.ConfigResource]bool{}
	for _, ra := range prior.ResourceAddrs() {
		cr := ra.InConfig()
		r := cfg.ConfigResource(cr)
		if r == nil || seen[cr] || r.Addr.Mode != addrs.Managed {
			continue
		}
		var from, to addrs.InstanceKey
		switch {
		case r.Count != nil:
			from, to = addrs.NoKey, addrs.IntKey(0)
		case r.ForEach == nil:
			from, to = addrs.IntKey(0), addrs.NoKey
		default:
			continue
		}
		if prior.Resources[ra].Instances[from] == nil {
			continue
		}
		seen[cr] = true
		out = append(out, moveStatement{module: cr.Module,
			from: &config.MoveEndpoint{Resource: r.Addr, Key: from, KeyGiven: true},
			to:   &config.MoveEndpoint{Resource: r.Addr, Key: to, KeyGiven: true}})
	}
	return out
}

// impliedModuleMoves returns the module call instance moves OpenTofu 1.12
// implies when count is added to or removed from a module call that
// already has objects: a call with count takes its instance without a key
// as [0], and one with neither count nor for_each (lifecycle.enabled
// included) takes [0] as its instance without a key. A call that a moved
// block of its module names is left to that block.
func impliedModuleMoves(cfg *config.Module, prior *state.State) []moveStatement {
	var out []moveStatement
	seen := map[string]bool{}
	for _, ra := range prior.ResourceAddrs() {
		steps := ra.Module.Steps()
		parent := addrs.RootModule
		for _, step := range steps {
			call := step
			inst := parent.Child(call.Name, call.Key)
			m := cfg.Descendant(parent.Module())
			parent = inst
			if m == nil || m.ModuleCalls[call.Name] == nil || m.Children[call.Name] == nil {
				break
			}
			mc := m.ModuleCalls[call.Name]
			var to addrs.InstanceKey
			switch {
			case mc.Count != nil:
				to = addrs.IntKey(0)
			case mc.ForEach == nil:
				to = addrs.NoKey
			default:
				continue
			}
			from := call.Key
			if from == to || from != addrs.NoKey && from != addrs.IntKey(0) || movedNamesCall(m, call.Name) {
				continue
			}
			key := m.Path.String() + "\x00" + call.Name
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, moveStatement{module: m.Path, exact: true,
				from: &config.MoveEndpoint{Module: addrs.RootModule.Child(call.Name, from)},
				to:   &config.MoveEndpoint{Module: addrs.RootModule.Child(call.Name, to)}})
		}
	}
	return out
}

// movedNamesCall reports whether a moved block of module m moves module
// call name, or an instance of it, from or to somewhere.
func movedNamesCall(m *config.Module, name string) bool {
	for _, mv := range m.Moved {
		for _, e := range []*config.MoveEndpoint{mv.From, mv.To} {
			if steps := e.Module.Steps(); len(steps) > 0 && steps[0].Name == name {
				return true
			}
		}
	}
	return false
}

// removedStatements collects the removed blocks of every module, as move
// statements whose destination is their source (only destination's match
// is used), checking that the configuration no longer declares what they
// remove.
func removedStatements(cfg *config.Module) ([]removedStatement, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []removedStatement
	for _, m := range cfg.AllModules() {
		for _, rm := range m.Removed {
			if rng, declared := declaredAt(m, rm.From); declared {
				ds = ds.Append(diag.At(rm.DeclRange, "Removed "+kindOf(rm.From)+" still exists",
					fmt.Sprintf("This statement declares that %s was removed, but it is still declared at %s.", rm.From, rng)))
				continue
			}
			out = append(out, removedStatement{match: moveStatement{module: m.Path, from: rm.From, to: rm.From}, decl: rm})
		}
	}
	return out, ds
}

// removedStatement is a removed block in the module that declares it.
type removedStatement struct {
	match moveStatement
	decl  *config.Removed
}

// removedDecision reports whether a removed block names resource ra, and
// if so whether it destroys (lifecycle.destroy = true) its objects rather
// than forget them.
func removedDecision(stmts []removedStatement, ra addrs.AbsResource) (found, destroy bool) {
	for _, st := range stmts {
		if _, ok := st.match.destination(ra); ok {
			return true, st.decl.Destroy
		}
	}
	return false, false
}
