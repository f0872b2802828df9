// Package plantest writes plans as text, for the tests of what comes
// after planning (the operation graph and its pictures): Parse builds a
// plan.Plan, with its prior state, from one line per change; Example is a
// realistic plan of a configuration with modules, Large a plan of any size.
//
// It imports internal/addrs, internal/plan and internal/state.
package plantest

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Example is a plan of a configuration with two modules in which a
// release replaces an image that a create_before_destroy launch template
// and its servers depend on, in Parse's form.
//
//go:embed testdata/example.changes
var Example string

var actions = map[string]plan.Action{
	"create": plan.Create, "update": plan.Update, "read": plan.Read, "delete": plan.Delete,
	"create-then-delete": plan.CreateThenDelete, "delete-then-create": plan.DeleteThenCreate,
}

// Parse builds a plan from changes written one a line:
//
//	ADDRESS ACTION [cbd] [inherited=RESOURCE] [deps=RESOURCE,...] [recorded=RESOURCE,...]
//
// ACTION is create, update, read, delete, create-then-delete or
// delete-then-create; cbd sets create_before_destroy, inherited the
// resource it was inherited from; deps are the change's dependencies and
// recorded those recorded in state for its prior object (deps when not
// given). Every change but a create or read has a prior object in the
// plan's prior state. Blank lines and lines starting with # are skipped.
func Parse(src string) (*plan.Plan, error) {
	prior := state.New()
	p := &plan.Plan{PriorState: prior}
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i, line := range strings.Split(src, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		addr, err := addrs.ParseAbsResourceInstanceStr(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: no action", i+1)
		}
		act, ok := actions[f[1]]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown action %q", i+1, f[1])
		}
		c := &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: act, Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal}
		var recorded []addrs.AbsResource
		recordedSet := false
		for _, opt := range f[2:] {
			k, v, _ := strings.Cut(opt, "=")
			switch k {
			case "cbd":
				c.CreateBeforeDestroy = true
			case "inherited":
				r, err := addrs.ParseAbsResourceStr(v)
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", i+1, err)
				}
				c.CBDInheritedFrom = r
			case "deps", "recorded":
				var list []addrs.AbsResource
				for _, s := range strings.Split(v, ",") {
					r, err := addrs.ParseAbsResourceStr(s)
					if err != nil {
						return nil, fmt.Errorf("line %d: %w", i+1, err)
					}
					list = append(list, r)
				}
				if k == "deps" {
					c.Dependencies = list
				} else {
					recorded, recordedSet = list, true
				}
			default:
				return nil, fmt.Errorf("line %d: unknown option %q", i+1, opt)
			}
		}
		if !recordedSet {
			recorded = c.Dependencies
		}
		if act == plan.Delete {
			c.Dependencies = recorded
		}
		if act != plan.Create && act != plan.Read {
			prior.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: []byte("{}"), Dependencies: recorded, CreateBeforeDestroy: c.CreateBeforeDestroy}, pc)
		}
		p.Changes = append(p.Changes, c)
	}
	return p, nil
}

// Large returns, in Parse's form, a plan of n creates: modules module.m0,
// module.m1, … of ten resources terraform_data.r0…r9 with up to 100
// instances each, every resource depending on the one before it in its
// module, and a module's first on the last of the module before.
func Large(n int) string {
	var b strings.Builder
	const per = 100
	for i := range n {
		inst, res := i%per, i/per
		mod, r := res/10, res%10
		fmt.Fprintf(&b, "module.m%d.terraform_data.r%d[%d] create", mod, r, inst)
		switch {
		case r > 0:
			fmt.Fprintf(&b, " deps=module.m%d.terraform_data.r%d", mod, r-1)
		case mod > 0:
			fmt.Fprintf(&b, " deps=module.m%d.terraform_data.r9", mod-1)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
