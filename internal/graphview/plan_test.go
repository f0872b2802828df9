package graphview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/plantest"
)

// examplePlan returns plantest.Example.
func examplePlan(t testing.TB) *plan.Plan {
	t.Helper()
	p, err := plantest.Parse(plantest.Example)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// exampleGraph returns the operation graph of plantest.Example.
func exampleGraph(t testing.TB) *apply.Graph {
	t.Helper()
	g, ds := apply.Order(examplePlan(t))
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
	p, err := plantest.Parse(b.String())
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
