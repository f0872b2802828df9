package apply

import (
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// modulesConfig is a network module, a service module called per key
// whose instance module is called per replica, and a root resource that
// lists every instance: dependencies cross module boundaries both ways.
const modulesConfig = `-- main.tf --
module "net" {
  source = "./net"
}
module "svc" {
  source   = "./svc"
  for_each = toset(["api", "web"])
  name     = each.key
  subnet   = module.net.subnet
}
resource "test_thing" "lb" {
  key = join(",", [for s in module.svc : s.host])
}
-- net/main.tf --
resource "test_thing" "vpc" {
  key = "vpc"
}
resource "test_thing" "subnet" {
  key = "subnet-${test_thing.vpc.key}"
}
output "subnet" {
  value = test_thing.subnet.key
}
-- svc/main.tf --
variable "name" {}
variable "subnet" {}
resource "test_thing" "host" {
  key = "${var.name}@${var.subnet}"
}
output "host" {
  value = test_thing.host.key
}
`

// position returns the index of the op "ACTION KEY" in ops, failing the
// test when it did not run.
func position(t *testing.T, ops []providertest.Op, op string) int {
	t.Helper()
	i := slices.IndexFunc(ops, func(o providertest.Op) bool { return o.String() == op })
	if i < 0 {
		t.Fatalf("%s did not run; ran: %s", op, providertest.OrderString(ops))
	}
	return i
}

// checkBefore asserts that each pair's first op finished before its second started.
func checkBefore(t *testing.T, ops []providertest.Op, pairs ...[2]string) {
	t.Helper()
	for _, p := range pairs {
		a, b := ops[position(t, ops, p[0])], ops[position(t, ops, p[1])]
		if !providertest.Before(a, b) {
			t.Errorf("%s did not finish before %s started; ran: %s", p[0], p[1], providertest.OrderString(ops))
		}
	}
}

func TestModulesCreateAndDestroyOrder(t *testing.T) {
	s := newScenario(t)
	_, ops := s.mustStep(modulesConfig, plan.NormalMode)
	checkBefore(t, ops,
		[2]string{"create vpc", "create subnet-vpc"},
		[2]string{"create subnet-vpc", "create api@subnet-vpc"},
		[2]string{"create subnet-vpc", "create web@subnet-vpc"},
		[2]string{"create api@subnet-vpc", "create api@subnet-vpc,web@subnet-vpc"},
		[2]string{"create web@subnet-vpc", "create api@subnet-vpc,web@subnet-vpc"},
	)
	host := addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "host"}.
		Instance(addrs.NoKey).Absolute(addrs.RootModule.Child("svc", addrs.StringKey("api")))}
	obj := s.state.Object(host)
	if obj == nil {
		t.Fatalf("%s not in state", host)
	}
	// Recorded as OpenTofu records them: transitively, without module keys.
	if got, want := joinDeps(obj.Dependencies), "module.net.test_thing.subnet, module.net.test_thing.vpc"; got != want {
		t.Errorf("%s dependencies = %s, want %s", host, got, want)
	}

	_, ops = s.mustStep(modulesConfig, plan.DestroyMode)
	checkBefore(t, ops,
		[2]string{"delete api@subnet-vpc,web@subnet-vpc", "delete api@subnet-vpc"},
		[2]string{"delete api@subnet-vpc", "delete subnet-vpc"},
		[2]string{"delete web@subnet-vpc", "delete subnet-vpc"},
		[2]string{"delete subnet-vpc", "delete vpc"},
	)
	if n := len(s.state.Objects()); n != 0 {
		t.Errorf("%d objects left after destroy", n)
	}
}

// Removing a module call destroys its objects in reverse dependency order,
// from the dependencies recorded in state.
func TestRemovedModuleCallDestroyedInReverseOrder(t *testing.T) {
	s := newScenario(t)
	s.mustStep(modulesConfig, plan.NormalMode)
	withoutNet := `-- main.tf --
resource "test_thing" "other" {
  key = "other"
}
`
	p, ops := s.mustStep(withoutNet, plan.NormalMode)
	checkBefore(t, ops,
		[2]string{"delete api@subnet-vpc,web@subnet-vpc", "delete api@subnet-vpc"},
		[2]string{"delete api@subnet-vpc", "delete subnet-vpc"},
		[2]string{"delete subnet-vpc", "delete vpc"},
	)
	for _, c := range p.Changes {
		if c.Action == plan.Delete && !c.Addr.Module.IsRoot() && c.Reason != plan.DeleteBecauseNoResourceConfig {
			t.Errorf("%s: reason %s, want delete_because_no_resource_config (as OpenTofu gives objects of a removed module call)", c.Addr, c.Reason.JSON())
		}
	}
}

func TestModuleDependsOn(t *testing.T) {
	s := newScenario(t)
	_, ops := s.mustStep(`-- main.tf --
resource "test_thing" "first" {
  key = "first"
}
module "later" {
  source     = "./m"
  depends_on = [test_thing.first]
}
-- m/main.tf --
resource "test_thing" "a" {
  key = "a"
}
resource "test_thing" "b" {
  key = "b"
}
`, plan.NormalMode)
	checkBefore(t, ops, [2]string{"create first", "create a"}, [2]string{"create first", "create b"})
}

// The chain a ← b ← c: b disappears (deleted outside rig), then a and c
// are removed from the configuration. c must be deleted before a: with
// transitive dependencies c recorded a; with reduced ones, b's
// dependencies are passed on to c when b is found gone.
func TestChainOrderAfterIntermediateGone(t *testing.T) {
	chain := `
resource "test_thing" "a" {
  key = "a"
}
resource "test_thing" "b" {
  key = "b-${test_thing.a.key}"
}
resource "test_thing" "c" {
  key = "c-${test_thing.b.key}"
}
`
	for _, tt := range []struct {
		mode     plan.DependencyMode
		wantDeps string
	}{
		{plan.TransitiveDependencies, "test_thing.a, test_thing.b"},
		{plan.ReducedDependencies, "test_thing.b"},
	} {
		t.Run(tt.wantDeps, func(t *testing.T) {
			s := newScenario(t)
			mode := func(o *planner.Options) { o.Dependencies = tt.mode }
			s.mustStep(chain, plan.NormalMode, mode)
			c := s.state.Object(addrs.ObjectAddr{Instance: thing("c")})
			if got := joinDeps(c.Dependencies); got != tt.wantDeps {
				t.Fatalf("c recorded %s, want %s", got, tt.wantDeps)
			}
			b := s.state.Object(addrs.ObjectAddr{Instance: thing("b")})
			bv, err := b.Decode(providertest.ThingSchema().Block.ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			if !s.prov.RemoveLive(bv.GetAttr("id").AsString()) {
				t.Fatal("b is not live")
			}
			_, ops := s.mustStep(`resource "test_thing" "other" {
  key = "other"
}`, plan.NormalMode, mode)
			checkBefore(t, ops, [2]string{"delete c-b-a", "delete a"})
		})
	}
}

// In reduced mode, once a removed resource's last object is deleted, the
// objects still recording it record its dependencies instead (here c,
// whose own delete failed).
func TestSplicerPassesDependenciesOn(t *testing.T) {
	a := addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "a"}}
	b, c := a, a
	b.Resource.Name, c.Resource.Name = "b", "c"
	prior := state.New()
	pc := addrs.AbsProviderConfig{Provider: providertest.Address()}
	prior.SetObject(addrs.ObjectAddr{Instance: a.Instance(addrs.NoKey)}, &state.Object{AttrsJSON: []byte(`{}`)}, pc)
	prior.SetObject(addrs.ObjectAddr{Instance: b.Instance(addrs.NoKey)}, &state.Object{AttrsJSON: []byte(`{}`), Dependencies: []addrs.AbsResource{a}}, pc)
	prior.SetObject(addrs.ObjectAddr{Instance: c.Instance(addrs.NoKey)}, &state.Object{AttrsJSON: []byte(`{}`), Dependencies: []addrs.AbsResource{b}}, pc)
	p := &plan.Plan{PriorState: prior, Changes: []*plan.ResourceInstanceChange{
		{Addr: a.Instance(addrs.NoKey), Action: plan.NoOp},
		{Addr: b.Instance(addrs.NoKey), Action: plan.Delete},
		{Addr: c.Instance(addrs.NoKey), Action: plan.Delete},
	}}
	sp := newSplicer(p)
	if sp.deleted(a) != nil {
		t.Error("a is kept, yet its delete splices")
	}
	working := prior.DeepCopy()
	working.SetObject(addrs.ObjectAddr{Instance: b.Instance(addrs.NoKey)}, nil, pc)
	splice := sp.deleted(b)
	if splice == nil {
		t.Fatal("the delete of b's last object splices nothing")
	}
	changed := splice(working)
	if len(changed) != 1 || changed[0].Instance != c.Instance(addrs.NoKey) {
		t.Errorf("changed %v, want c", changed)
	}
	if got := joinDeps(working.Object(addrs.ObjectAddr{Instance: c.Instance(addrs.NoKey)}).Dependencies); got != "test_thing.a" {
		t.Errorf("c records %s after b is gone, want test_thing.a", got)
	}
	if got := joinDeps(prior.Object(addrs.ObjectAddr{Instance: c.Instance(addrs.NoKey)}).Dependencies); got != "test_thing.b" {
		t.Errorf("the prior state's object changed: %s", got)
	}
}

func joinDeps(deps []addrs.AbsResource) string {
	parts := make([]string, len(deps))
	for i, d := range deps {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}
