package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Action is the address of an action block within its module (Terraform
// 1.14): action.TYPE.NAME.
type Action struct {
	Type, Name string
}

// String returns the address as a configuration writes it.
func (a Action) String() string { return "action." + a.Type + "." + a.Name }

// Instance returns the address of one instance of a in module instance m.
func (a Action) Instance(m ModuleInstance, k InstanceKey) AbsActionInstance {
	return AbsActionInstance{Module: m, Action: a, Key: k}
}

// AbsActionInstance names one instance of an action block in a module
// instance: module.m.action.TYPE.NAME[KEY].
type AbsActionInstance struct {
	Module ModuleInstance
	Action Action
	Key    InstanceKey
}

// String returns the address as a user writes it.
func (a AbsActionInstance) String() string {
	s := a.Action.String() + a.Key.String()
	if a.Module.IsRoot() {
		return s
	}
	return string(a.Module) + "." + s
}

// ConfigString returns the address of the action block, without the
// instance key: module.m.action.TYPE.NAME.
func (a AbsActionInstance) ConfigString() string {
	if a.Module.IsRoot() {
		return a.Action.String()
	}
	return string(a.Module) + "." + a.Action.String()
}

// ParseAbsActionInstanceStr parses an action instance address as a user
// types it on the command line: action.TYPE.NAME, action.TYPE.NAME[KEY],
// module.m.action.TYPE.NAME.
func ParseAbsActionInstanceStr(s string) (AbsActionInstance, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return AbsActionInstance{}, fmt.Errorf("invalid action address %q: %s", s, diags[0].Summary)
	}
	mod, rest, err := parseModulePrefix(trav)
	if err != nil {
		return AbsActionInstance{}, fmt.Errorf("invalid action address %q: %w", s, err)
	}
	if len(rest) < 3 || traverserName(rest[0]) != "action" || traverserName(rest[1]) == "" || traverserName(rest[2]) == "" {
		return AbsActionInstance{}, fmt.Errorf("invalid action address %q: an action address is action.TYPE.NAME, optionally with an instance key", s)
	}
	out := AbsActionInstance{Module: mod, Action: Action{Type: traverserName(rest[1]), Name: traverserName(rest[2])}}
	rest = rest[3:]
	if len(rest) > 0 {
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return AbsActionInstance{}, fmt.Errorf("invalid action address %q: unexpected extra operators after address", s)
		}
		if out.Key, err = keyFromValue(idx.Key); err != nil {
			return AbsActionInstance{}, fmt.Errorf("invalid action address %q: %w", s, err)
		}
		rest = rest[1:]
	}
	if len(rest) != 0 {
		return AbsActionInstance{}, fmt.Errorf("invalid action address %q: unexpected extra operators after address", s)
	}
	return out, nil
}
