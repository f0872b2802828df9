package graphview

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

var actions = map[string]plan.Action{
	"create": plan.Create, "update": plan.Update, "read": plan.Read, "delete": plan.Delete,
	"create-then-delete": plan.CreateThenDelete, "delete-then-create": plan.DeleteThenCreate,
}

// readPlan builds a plan from a file of changes, one a line (see
// testdata/example.plan for the form).
func readPlan(t testing.TB, path string) *plan.Plan {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parsePlan(string(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

func parsePlan(src string) (*plan.Plan, error) {
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

// orderOf returns the operation graph of the plan in path.
func orderOf(t testing.TB, path string) *apply.Graph {
	t.Helper()
	g, ds := apply.Order(readPlan(t, path))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return g
}

// largePlan returns a plan of n creates: modules module.m0… of ten
// resources with count = 100 each, every resource depending on the one
// before it in its module and the first on the last of the module before.
func largePlan(n int) *plan.Plan {
	var b strings.Builder
	const per = 100
	for i := 0; i < n; i++ {
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
	p, err := parsePlan(b.String())
	if err != nil {
		panic(err)
	}
	return p
}

// largeGraph returns the operation graph of largePlan(10000).
func largeGraph(t testing.TB) *apply.Graph {
	t.Helper()
	g, ds := apply.Order(largePlan(10000))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return g
}
