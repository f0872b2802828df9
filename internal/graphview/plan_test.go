package graphview

import (
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

// largeGraph returns the operation graph of plantest.Large(10000).
func largeGraph(t testing.TB) *apply.Graph {
	t.Helper()
	p, err := plantest.Parse(plantest.Large(10000))
	if err != nil {
		t.Fatal(err)
	}
	g, ds := apply.Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return g
}

// exampleDocument returns the page document of the example plan with
// what the page shows at its best: each edge's rule and each action's
// reasons.
func exampleDocument(t testing.TB) *Document {
	t.Helper()
	p := examplePlan(t)
	g, ds := apply.OrderWith(p, apply.OrderOptions{Rules: true})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return Build(g, p)
}
