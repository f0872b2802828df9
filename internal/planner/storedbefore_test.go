package planner_test

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
)

// storedSrc has an object of the test provider (a sensitive value from
// the configuration, and attributes its schema declares sensitive) and
// one of the built-in terraform_data (whose output echoes its sensitive
// input).
const storedSrc = `
resource "test_secret" "s" {
  key   = "s"
  value = sensitive("hidden")
  token = "t0ken"
}
resource "terraform_data" "d" {
  input = sensitive("secret-input")
}
`

// sensitivePaths returns the attribute names of v, an object, whose
// values are marked sensitive.
func sensitivePaths(v cty.Value) map[string]bool {
	out := map[string]bool{}
	_, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		for m := range pvm.Marks {
			if marks.IsSensitive(m) && len(pvm.Path) == 1 {
				out[pvm.Path[0].(cty.GetAttrStep).Name] = true
			}
		}
	}
	return out
}

// TestDeletesKeepPriorValuesEncoded: the deletes of a destroy plan keep
// their prior values as the state's objects, and decode them with the
// sensitive marks the state records and the schema declares, the same
// value a refresh read back; a drifted object keeps the value read.
func TestDeletesKeepPriorValuesEncoded(t *testing.T) {
	w := newWorld(t)
	w.run(storedSrc, planner.Options{})

	p := w.plan(storedSrc, planner.Options{Mode: plan.DestroyMode})
	wantSensitive := map[string][]string{
		"test_secret.s":    {"value", "token", "password"},
		"terraform_data.d": {"input", "output"},
	}
	for _, c := range p.Changes {
		addr := c.Addr.String()
		if c.Action != plan.Delete {
			t.Fatalf("%s: %s, want delete", addr, c.Action)
		}
		if !c.BeforeStored() || c.Before != cty.NilVal {
			t.Errorf("%s: prior value held decoded, want it kept as its state object", addr)
		}
		v := c.BeforeValue()
		if v.IsNull() || !v.IsWhollyKnown() {
			t.Fatalf("%s: prior value %#v", addr, v)
		}
		got := sensitivePaths(v)
		for _, name := range wantSensitive[addr] {
			if !got[name] {
				t.Errorf("%s: %s not marked sensitive in the decoded prior value (marked: %v)", addr, name, got)
			}
		}
		if len(got) != len(wantSensitive[addr]) {
			t.Errorf("%s: marked %v, want %v", addr, got, wantSensitive[addr])
		}
		obj := p.PriorState.Object(c.ObjectAddr())
		if plain, _ := v.UnmarkDeep(); !plain.GetAttr("id").RawEquals(mustDecodeID(t, obj.AttrsJSON)) {
			t.Errorf("%s: decoded id %#v, state records %s", addr, plain.GetAttr("id"), obj.AttrsJSON)
		}
		if d := c.WithBeforeDecoded(); d == c || d.BeforeStored() || !d.Before.RawEquals(v) {
			t.Errorf("%s: WithBeforeDecoded does not give a decoded copy", addr)
		}
	}

	// An object changed outside rig is planned from the value read back.
	id := p.PriorState.Object(p.Changes[1].ObjectAddr())
	drift(t, w.live, mustDecodeID(t, id.AttrsJSON).AsString(), "value", cty.StringVal("changed"))
	p = w.plan(storedSrc, planner.Options{Mode: plan.DestroyMode})
	for _, c := range p.Changes {
		if c.Addr.Resource.Resource.Type != "test_secret" {
			continue
		}
		if c.BeforeStored() {
			t.Errorf("%s: drifted prior value kept as the recorded object", c.Addr)
		}
		if got, _ := c.Before.GetAttr("value").Unmark(); !got.RawEquals(cty.StringVal("changed")) {
			t.Errorf("%s: prior value %#v, want the one read back", c.Addr, got)
		}
		if !marks.Has(c.Before.GetAttr("value")) {
			t.Errorf("%s: recorded sensitive value lost its mark", c.Addr)
		}
	}

	// Applying the destroy deletes both objects.
	w.run(storedSrc, planner.Options{Mode: plan.DestroyMode})
	if !w.state.Empty() || len(w.live.Live()) != 0 {
		t.Errorf("after destroy: state %v, live %v", w.state.Objects(), w.live.Live())
	}
}

func mustDecodeID(t *testing.T, attrs []byte) cty.Value {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(attrs, &m); err != nil {
		t.Fatal(err)
	}
	s, ok := m["id"].(string)
	if !ok {
		t.Fatalf("no id in %s", attrs)
	}
	return cty.StringVal(s)
}
