package apply

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// scenario drives successive plans and applies against one recording test
// provider, keeping the state between steps as rig would persist it.
type scenario struct {
	t     *testing.T
	prov  *providertest.Provider
	state *state.State
	// writes counts persisted snapshots.
	writes int
	// parallelism for the next apply (0 = default).
	parallelism int
	// provisioners the applies run; nil means none.
	provisioners map[string]Provisioner
	// hooks observe the applies; nil means none.
	hooks Hooks
	// wrap, when set, wraps the test provider each step uses.
	wrap func(*providertest.Provider) provider.Interface
	// perInstance starts a providertest.Instance per provider
	// configuration (instance), so ops record which one made them.
	perInstance bool
	// deposedKeys chooses the deposed keys of every step's apply:
	// SequentialDeposedKeys unless set.
	deposedKeys DeposedKeySource
}

func newScenario(t *testing.T) *scenario {
	return &scenario{t: t, prov: providertest.New(), state: state.New()}
}

func (s *scenario) factories() provider.Factories {
	f := s.prov.Factories()
	if s.perInstance {
		f = s.prov.InstanceFactories()
	}
	if s.wrap != nil {
		f[providertest.Address()] = func() (provider.Interface, error) { return s.wrap(s.prov), nil }
	}
	f[addrs.NewBuiltInProvider("terraform")] = func() (provider.Interface, error) { return builtin.NewTerraform(), nil }
	return f
}

// WriteState implements StateWriter: it checks every snapshot is a valid,
// self-consistent state by keeping a deep copy.
func (s *scenario) WriteState(_ context.Context, st *state.State) error {
	s.writes++
	return nil
}

// WriteStart implements StateWriter.
func (s *scenario) WriteStart(ctx context.Context, st *state.State) error {
	return s.WriteState(ctx, st)
}

// WriteChanges implements StateWriter.
func (s *scenario) WriteChanges(_ context.Context, st *state.State, _ []addrs.ObjectAddr, _ bool) error {
	s.writes++
	return nil
}

// step plans src in the given mode and applies the plan, returning the
// plan, the operations the provider recorded during the apply, and the
// apply's diagnostics. Planning errors fail the test.
func (s *scenario) step(src string, mode plan.Mode, opts ...func(*planner.Options)) (*plan.Plan, []providertest.Op, diag.Diagnostics) {
	s.t.Helper()
	p, ds := s.plan(src, mode, opts...)
	if ds.HasErrors() {
		s.t.Fatalf("plan: %v", ds.Err())
	}
	ops, ds := s.apply(src, p)
	return p, ops, ds
}

func (s *scenario) plan(src string, mode plan.Mode, opts ...func(*planner.Options)) (*plan.Plan, diag.Diagnostics) {
	s.t.Helper()
	cfg := loadConfig(s.t, src)
	set := provider.NewSet(s.factories())
	defer set.Close()
	o := planner.Options{Mode: mode}
	for _, f := range opts {
		f(&o)
	}
	return planner.Make(context.Background(), cfg, s.state, set, o)
}

func (s *scenario) apply(src string, p *plan.Plan) ([]providertest.Op, diag.Diagnostics) {
	s.t.Helper()
	cfg := loadConfig(s.t, src)
	set := provider.NewSet(s.factories())
	defer set.Close()
	before := len(s.prov.Ops())
	if s.deposedKeys == nil {
		s.deposedKeys = SequentialDeposedKeys()
	}
	// As Apply, with reproducible deposed keys.
	pr, ds := Prepare(cfg, p, PrepareOptions{DeposedKeys: s.deposedKeys})
	if ds.HasErrors() {
		return nil, ds
	}
	st, ds := pr.execute(context.Background(), set, Options{StateWriter: s, Parallelism: s.parallelism, Provisioners: s.provisioners, Hooks: s.hooks}, false)
	s.state = st
	return s.prov.Ops()[before:], ds
}

// mustStep is step that fails the test on apply errors.
func (s *scenario) mustStep(src string, mode plan.Mode, opts ...func(*planner.Options)) (*plan.Plan, []providertest.Op) {
	s.t.Helper()
	p, ops, ds := s.step(src, mode, opts...)
	if ds.HasErrors() {
		s.t.Fatalf("apply: %v", ds.Err())
	}
	return p, ops
}

// checkSequence asserts that ops ran exactly in the order want
// ("delete a; create a; update b"), each finishing before the next started.
func checkSequence(t *testing.T, ops []providertest.Op, want string) {
	t.Helper()
	if got := providertest.OrderString(ops); got != want {
		t.Fatalf("operations ran as\n  %s\nwant\n  %s", got, want)
	}
	for i := 1; i < len(ops); i++ {
		if !providertest.Before(ops[i-1], ops[i]) {
			t.Fatalf("%s did not finish before %s started", ops[i-1], ops[i])
		}
	}
}

// objectCBD returns the recorded create_before_destroy of a current object.
func (s *scenario) objectCBD(name string) bool {
	s.t.Helper()
	obj := s.state.Object(addrs.ObjectAddr{Instance: thing(name)})
	if obj == nil {
		s.t.Fatalf("test_thing.%s not in state", name)
	}
	return obj.CreateBeforeDestroy
}

func thing(name string) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
}

// deposedCount counts deposed objects left in the state.
func (s *scenario) deposedCount() int {
	n := 0
	for _, o := range s.state.Objects() {
		if o.Deposed != addrs.NotDeposed {
			n++
		}
	}
	return n
}
