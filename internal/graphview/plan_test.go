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
