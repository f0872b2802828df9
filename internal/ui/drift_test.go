package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// TestDriftedAttributes: each changed attribute is reported at its own
// path — nested object and map entries one by one, a list that changed
// length as a whole — and a sensitive one never shows its values.
func TestDriftedAttributes(t *testing.T) {
	obj := func(a, secret, k string, extra bool, list ...int64) cty.Value {
		m := map[string]cty.Value{"k": cty.StringVal(k)}
		if extra {
			m["n"] = cty.StringVal("3")
		}
		var l []cty.Value
		for _, n := range list {
			l = append(l, cty.NumberIntVal(n))
		}
		return cty.ObjectVal(map[string]cty.Value{
			"a":      cty.StringVal(a),
			"same":   cty.StringVal("s"),
			"secret": cty.StringVal(secret).Mark(marks.Sensitive),
			"tags":   cty.MapVal(m),
			"list":   cty.ListVal(l),
		})
	}
	c := &plan.ResourceInstanceChange{
		Addr:   addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "x"}.Instance(addrs.NoKey).Absolute(addrs.RootModule),
		Action: plan.Update,
		Before: obj("x", "p1", "1", false, 1, 2),
		After:  obj("y", "p2", "2", true, 1),
	}
	var paths []string
	for _, a := range DriftedAttributes(c) {
		paths = append(paths, driftPath(a.Path))
	}
	if got, want := strings.Join(paths, " "), `a list secret tags["k"] tags["n"]`; got != want {
		t.Errorf("drifted attributes %s, want %s", got, want)
	}

	var text bytes.Buffer
	RenderDrift(&text, DriftReport{Drift: []*plan.ResourceInstanceChange{c}, Objects: 4}, RenderOptions{})
	for _, want := range []string{
		"Drift detected. 1 of 4 objects changed outside rig:",
		"# test_thing.x has changed",
		`a: "x" → "y"`,
		`secret: (sensitive value) → (sensitive value)`,
		`tags["n"]: null → "3"`,
		"rig apply -refresh-only",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
	var stream bytes.Buffer
	jv := NewJSONView(&stream)
	for _, a := range DriftedAttributes(c) {
		jv.DriftAttribute(c, a)
	}
	for _, s := range []string{"p1", "p2"} {
		if strings.Contains(text.String()+stream.String(), s) {
			t.Errorf("the sensitive value %q is shown:\n%s\n%s", s, text.String(), stream.String())
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(stream.String()), "\n") {
		var m struct {
			A map[string]any `json:"drift_attribute"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.A["path"] == "secret" && (m.A["sensitive"] != true || m.A["before"] != nil) {
			t.Errorf("sensitive drift_attribute: %s", line)
		}
		if m.A["path"] == "a" && (m.A["before"] != "x" || m.A["after"] != "y") {
			t.Errorf("drift_attribute: %s", line)
		}
	}
}
