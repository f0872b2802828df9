package apply

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// TestLiveValuesStored: a value kept as its state object's JSON reads back
// as it was set, marks and dynamic types included, also after its
// resource's whole value was dropped to keep within the budget.
func TestLiveValuesStored(t *testing.T) {
	cfg := loadConfig(t, `
resource "terraform_data" "a" {
  count = 3
}
resource "terraform_data" "b" {}
`)
	set := builtinSet()
	defer set.Close()
	sch, ds := set.ResourceTypeSchema(context.Background(), addrs.NewBuiltInProvider("terraform"), "terraform_data")
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ty := sch.Block.ImpliedType()
	a := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModule)
	b := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "b"}.Absolute(addrs.RootModule)
	p := &plan.Plan{}
	for _, ia := range []addrs.AbsResourceInstance{a.Instance(addrs.IntKey(0)), a.Instance(addrs.IntKey(1)), a.Instance(addrs.IntKey(2)), b.Instance(addrs.NoKey)} {
		p.Changes = append(p.Changes, &plan.ResourceInstanceChange{Addr: ia, Action: plan.Create, After: cty.UnknownVal(ty)})
	}
	object := func(i int) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal("id-" + string(rune('0'+i))),
			"input": cty.ObjectVal(map[string]cty.Value{
				"n":      cty.NumberIntVal(int64(i)),
				"secret": cty.StringVal("hunter2").Mark(marks.Sensitive),
				"list":   cty.ListVal([]cty.Value{cty.True, cty.False}),
			}),
			"output":           cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberFloatVal(2.5)}),
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			"store":            cty.NullVal(sch.Block.ImpliedType().AttributeType("store")),
		})
	}
	budget, decoded := wholeBudget, decodedBudget
	wholeBudget, decodedBudget = 2, 0
	defer func() { wholeBudget, decodedBudget = budget, decoded }()
	lv := newLiveValues(cfg, p, valueDecoder{}, true)
	want := make([]cty.Value, 3)
	for i := range want {
		want[i] = object(i)
		obj, err := plan.NewStateObject(addrs.NewBuiltInProvider("terraform"), "terraform_data", sch, want[i])
		if err != nil {
			t.Fatal(err)
		}
		lv.set(a.Instance(addrs.IntKey(i)), want[i], obj, ty)
	}
	for round := range 2 {
		if got := lv.ResourceValue(a); !got.RawEquals(cty.TupleVal(want)) {
			t.Errorf("round %d: a = %#v\nwant %#v", round, got, cty.TupleVal(want))
		}
		// b's unknown planned value comes next, and a's whole value
		// leaves the budget.
		if got := lv.ResourceValue(b); !got.RawEquals(cty.UnknownVal(ty)) {
			t.Errorf("round %d: b = %#v, want its planned value", round, got)
		}
		if _, cached := lv.whole[a]; cached {
			t.Errorf("round %d: a's whole value is kept beyond the budget", round)
		}
	}
}

// TestReleaseAppliedValues: expressions see the same values, sensitive
// marks included, whether the apply keeps the values it recorded decoded
// or as their objects' JSON (with budgets that keep almost no whole value
// decoded, and no recorded value or only the first few).
func TestReleaseAppliedValues(t *testing.T) {
	const src = `
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}
resource "terraform_data" "a" {
  count = 5
  input = { n = count.index, s = var.secret, l = [1, 2] }
}
resource "terraform_data" "b" {
  count = 5
  input = [terraform_data.a[count.index].output, terraform_data.a[(count.index + 1) % 5].id]
}
resource "terraform_data" "c" {
  input = { for i, b in terraform_data.b : tostring(i) => b.output }
}
output "c" {
  value     = terraform_data.c.output
  sensitive = true
}
output "ids" {
  value = terraform_data.b[*].id
}
`
	budget, decoded := wholeBudget, decodedBudget
	wholeBudget = 3
	defer func() { wholeBudget, decodedBudget = budget, decoded }()
	modes := []struct {
		name    string
		release bool
		decoded int
	}{
		{"kept", false, decoded},
		{"released, all decoded", true, decoded},
		{"released, the first decoded", true, 600},
		{"released, none decoded", true, 0},
	}
	sensitive := map[string]map[string]string{}
	for _, mode := range modes {
		name := mode.name
		decodedBudget = mode.decoded
		cfg := loadConfig(t, src)
		ctx := context.Background()
		set := builtinSet()
		p, ds := planner.Make(ctx, cfg, state.New(), set, planner.Options{})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		s, ds := applyOwned(ctx, cfg, p, set, Options{StateWriter: &memWriter{}}, mode.release)
		if ds.HasErrors() {
			t.Fatalf("%s: %v", name, ds.Err())
		}
		sch, ds := set.ResourceTypeSchema(ctx, addrs.NewBuiltInProvider("terraform"), "terraform_data")
		set.Close()
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		sensitive[name] = map[string]string{}
		values := map[string]cty.Value{}
		for _, oa := range s.Objects() {
			obj := s.Object(oa)
			sensitive[name][oa.String()] = string(obj.SensitiveAttributes)
			v, err := obj.Decode(sch.Block.ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			values[oa.String()] = v
		}
		for i := range 5 {
			b := values["terraform_data.b["+string(rune('0'+i))+"]"].GetAttr("output")
			next := values["terraform_data.a["+string(rune('0'+(i+1)%5))+"]"].GetAttr("id")
			if got := b.Index(cty.NumberIntVal(1)); !got.RawEquals(next) {
				t.Errorf("%s: b[%d] refers to id %#v, want %#v", name, i, got, next)
			}
		}
		if !s.Outputs["c"].Sensitive || s.Outputs["ids"].Value.LengthInt() != 5 {
			t.Errorf("%s: outputs %v", name, s.Outputs)
		}
	}
	for _, mode := range modes[1:] {
		for addr, paths := range sensitive["kept"] {
			if got := sensitive[mode.name][addr]; got != paths {
				t.Errorf("%s records sensitive paths %s with values %s, %s with values kept", addr, got, mode.name, paths)
			}
		}
	}
	if sensitive["kept"]["terraform_data.b[0]"] == "" {
		t.Errorf("b[0] records no sensitive path: the secret's mark did not reach it")
	}
}
