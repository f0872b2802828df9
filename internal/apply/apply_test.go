package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"
	"golang.org/x/tools/txtar"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// memWriter keeps every persisted snapshot's object count, to check durability.
type memWriter struct{ writes int }

func (w *memWriter) WriteState(_ context.Context, s *state.State) error {
	w.writes++
	return nil
}

func (w *memWriter) WriteStart(ctx context.Context, s *state.State) error {
	return w.WriteState(ctx, s)
}

func (w *memWriter) WriteChanges(_ context.Context, s *state.State, _ []addrs.ObjectAddr, _ bool) error {
	w.writes++
	return nil
}

func loadConfig(t *testing.T, src string) *config.Module {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{"main.tf": []byte(src)}
	if strings.HasPrefix(src, "-- ") {
		// A txtar archive: main.tf and module directories.
		files = map[string][]byte{}
		for _, f := range txtar.Parse([]byte(src)).Files {
			files[f.Name] = f.Data
		}
	}
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := config.LoadTree(dir, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return cfg
}

func builtinSet() *provider.Set {
	return provider.NewSet(provider.Factories{
		addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) { return builtin.NewTerraform(), nil },
	})
}

func planAndApply(t *testing.T, cfg *config.Module, prior *state.State, mode plan.Mode) (*plan.Plan, *state.State) {
	t.Helper()
	ctx := context.Background()
	set := builtinSet()
	defer set.Close()
	p, ds := planner.Make(ctx, cfg, prior, set, planner.Options{Mode: mode})
	if ds.HasErrors() {
		t.Fatalf("plan: %v", ds.Err())
	}
	w := &memWriter{}
	s, ds := Apply(ctx, cfg, p, set, Options{StateWriter: w})
	if ds.HasErrors() {
		t.Fatalf("apply: %v", ds.Err())
	}
	return p, s
}

func actions(p *plan.Plan) map[string]plan.Action {
	out := map[string]plan.Action{}
	for _, c := range p.Changes {
		out[c.ObjectAddr().String()] = c.Action
	}
	return out
}

const lifecycleConfig = `
variable "in" { default = "one" }
variable "trig" { default = "t1" }
resource "terraform_data" "a" {
  input            = var.in
  triggers_replace = var.trig
}
resource "terraform_data" "b" {
  count = 2
  input = "${terraform_data.a.output}-${count.index}"
}
output "b" { value = terraform_data.b[*].output }
`

func TestCreateUpdateReplaceDestroy(t *testing.T) {
	cfg := loadConfig(t, lifecycleConfig)
	p, s := planAndApply(t, cfg, state.New(), plan.NormalMode)
	want := map[string]plan.Action{"terraform_data.a": plan.Create, "terraform_data.b[0]": plan.Create, "terraform_data.b[1]": plan.Create}
	if got := actions(p); !equalActions(got, want) {
		t.Fatalf("create plan = %v, want %v", got, want)
	}
	if got := s.Outputs["b"].Value; !got.RawEquals(cty.TupleVal([]cty.Value{cty.StringVal("one-0"), cty.StringVal("one-1")})) {
		t.Fatalf("output b = %#v", got)
	}
	rec := s.Object(addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "b"}.Instance(addrs.IntKey(0)).Absolute(addrs.RootModule)})
	if rec == nil || len(rec.Dependencies) != 1 || rec.Dependencies[0].String() != "terraform_data.a" {
		t.Fatalf("b[0] dependencies not recorded: %+v", rec)
	}

	// No changes.
	p, s = planAndApply(t, cfg, s, plan.NormalMode)
	if p.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(p))
	}

	// Update input: a updated, b updated because a's output changes.
	t.Setenv("unused", "")
	cfg2 := loadConfig(t, lifecycleConfig)
	cfg2.Variables["in"].Default = cty.StringVal("two")
	p, s = planAndApply(t, cfg2, s, plan.NormalMode)
	want = map[string]plan.Action{"terraform_data.a": plan.Update, "terraform_data.b[0]": plan.Update, "terraform_data.b[1]": plan.Update}
	if got := actions(p); !equalActions(got, want) {
		t.Fatalf("update plan = %v, want %v", got, want)
	}
	if got := s.Outputs["b"].Value; !got.RawEquals(cty.TupleVal([]cty.Value{cty.StringVal("two-0"), cty.StringVal("two-1")})) {
		t.Fatalf("output b after update = %#v", got)
	}

	// Change the trigger: a replaced (delete first), b no-op? b's input unchanged ("two-i").
	cfg2.Variables["trig"].Default = cty.StringVal("t2")
	p, s = planAndApply(t, cfg2, s, plan.NormalMode)
	if got := actions(p)["terraform_data.a"]; got != plan.DeleteThenCreate {
		t.Fatalf("trigger change: a = %v, want delete-then-create", got)
	}

	// Destroy.
	p, s = planAndApply(t, cfg2, s, plan.DestroyMode)
	if got := len(p.Changes); got != 3 {
		t.Fatalf("destroy plan has %d changes, want 3", got)
	}
	if len(s.Resources) != 0 || len(s.Outputs) != 0 {
		t.Fatalf("state not empty after destroy: %d resources, %d outputs", len(s.Resources), len(s.Outputs))
	}
}

func equalActions(a, b map[string]plan.Action) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// applyOwned applies p with Prepare and Execute when owned, else with Apply.
func applyOwned(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set, opts Options, owned bool) (*state.State, diag.Diagnostics) {
	if !owned {
		return Apply(ctx, cfg, p, set, opts)
	}
	pr, ds := Prepare(cfg, p, PrepareOptions{})
	if ds.HasErrors() {
		return nil, ds
	}
	return pr.Execute(ctx, set, opts)
}

// TestReleaseApplied: when Execute owns the plan, every change whose
// operations all ran has its values cleared, every configuration body is
// released (at once when nothing creates or updates its resource, as in a
// destroy), and the apply's result is the same as Apply's, which leaves
// the plan and the configuration as they were.
func TestReleaseApplied(t *testing.T) {
	for _, mode := range []plan.Mode{plan.NormalMode, plan.DestroyMode} {
		for _, cbd := range []bool{false, true} {
			src := lifecycleConfig
			if cbd {
				src = strings.Replace(src, "triggers_replace = var.trig", "triggers_replace = var.trig\n  lifecycle { create_before_destroy = true }", 1)
			}
			cfg := loadConfig(t, src)
			_, prior := planAndApply(t, cfg, state.New(), plan.NormalMode)
			cfg.Variables["in"].Default = cty.StringVal("two")
			cfg.Variables["trig"].Default = cty.StringVal("t2")

			results := map[bool]*state.State{}
			for _, release := range []bool{false, true} {
				ctx := context.Background()
				set := builtinSet()
				p, ds := planner.Make(ctx, cfg, prior.DeepCopy(), set, planner.Options{Mode: mode})
				if ds.HasErrors() {
					t.Fatal(ds.Err())
				}
				s, ds := applyOwned(ctx, cfg, p, set, Options{StateWriter: &memWriter{}}, release)
				set.Close()
				if ds.HasErrors() {
					t.Fatal(ds.Err())
				}
				results[release] = s
				for addr, r := range cfg.ManagedResources {
					if _, kept := r.Config.(*hclsyntax.Body); kept == release {
						t.Errorf("mode=%v cbd=%v release=%v: configuration body of %s kept: %v", mode, cbd, release, addr, kept)
					}
				}
				for _, c := range p.Changes {
					if released := c.After == cty.NilVal && c.Before == cty.NilVal; released != release {
						t.Errorf("mode=%v cbd=%v release=%v: %s %s has released values: %v", mode, cbd, release, c.Action, c.ObjectAddr(), released)
					}
				}
			}
			kept, released := results[false], results[true]
			want := 3
			if mode == plan.DestroyMode {
				want = 0
			} else if got, want := released.Outputs["b"].Value, kept.Outputs["b"].Value; !got.RawEquals(want) {
				t.Errorf("cbd=%v: output b = %#v with release, %#v without", cbd, got, want)
			}
			if got, gotKept := len(released.Objects()), len(kept.Objects()); got != gotKept || got != want {
				t.Errorf("mode=%v cbd=%v: %d objects with release, %d without; want %d", mode, cbd, got, gotKept, want)
			}
		}
	}
}

// signalingProvider closes applied when it applies a change whose input is
// "c".
type signalingProvider struct {
	provider.Interface
	applied chan struct{}
}

func (p signalingProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	resp := p.Interface.ApplyResourceChange(ctx, req)
	if in := req.PlannedState.GetAttr("input"); in.IsKnown() && !in.IsNull() && in.AsString() == "c" {
		close(p.applied)
	}
	return resp
}

// blockingWriter holds every write until c has been applied.
type blockingWriter struct{ applied chan struct{} }

func (w blockingWriter) WriteState(context.Context, *state.State) error { return nil }

func (w blockingWriter) WriteStart(context.Context, *state.State) error { return nil }

func (w blockingWriter) WriteChanges(context.Context, *state.State, []addrs.ObjectAddr, bool) error {
	select {
	case <-w.applied:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("c was never applied while a and b waited for their results to be persisted")
	}
}

// An operation waiting for its result to be durable does not hold a slot of
// -parallelism: with two slots, a and b waiting, c still runs.
func TestWaitingForDurabilityFreesSlot(t *testing.T) {
	cfg := loadConfig(t, `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = "b" }
resource "terraform_data" "c" { input = "c" }
`)
	ctx := context.Background()
	applied := make(chan struct{})
	set := provider.NewSet(provider.Factories{
		addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) {
			return signalingProvider{Interface: builtin.NewTerraform(), applied: applied}, nil
		},
	})
	defer set.Close()
	p, ds := planner.Make(ctx, cfg, state.New(), set, planner.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	s, ds := Apply(ctx, cfg, p, set, Options{StateWriter: blockingWriter{applied}, Parallelism: 2})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if n := len(s.Objects()); n != 3 {
		t.Fatalf("%d objects in state, want 3", n)
	}
}
