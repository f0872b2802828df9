package workdir

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
)

// TestCompletedApplyKeepsCarriedCreates: an apply that carries a create an
// earlier run left cut off at an address, and creates that instance again
// itself, ends its own create there; once it completes, the intents file
// still lists the earlier create, with its values, and nothing of its own.
func TestCompletedApplyKeepsCarriedCreates(t *testing.T) {
	d := New(t.TempDir(), Options{})
	addr := addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "b"}, Key: addrs.NoKey}}
	intent := func(run string) apply.Intent {
		return apply.Intent{Addr: addr, Address: addr.String(), Provider: `provider["registry.terraform.io/rig/test"]`,
			Values: map[string]json.RawMessage{"name": json.RawMessage(`"` + run + `"`)}}
	}
	carried := []apply.Intent{intent("earlier")}
	for _, completed := range []bool{false, true} {
		l, err := d.OpenIntents(true, carried)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Begin(intent("this")); err != nil {
			t.Fatal(err)
		}
		if err := l.End(addr); err != nil {
			t.Fatal(err)
		}
		d.CloseIntents(l, completed)
		left, err := d.InFlightCreates()
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 1 || string(left[0].Values["name"]) != `"earlier"` {
			t.Fatalf("completed %v: creates left %+v, want only the earlier run's", completed, left)
		}
		carried = left
	}
	if err := d.KeepCutOffCreates(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.IntentsPath()); !os.IsNotExist(err) {
		t.Errorf("the intents file outlived the recovery of its last create: %v", err)
	}
}
