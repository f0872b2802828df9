package statefile

import (
	"bytes"
	"fmt"
	"regexp"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// TestAppendLineIsMarshalOnOneLine checks that a state's line is the
// document Marshal writes with its line breaks and their indentation taken
// out, dependencies included (raw JSON, compacted in a line, is left out:
// the objects have flat attributes).
func TestAppendLineIsMarshalOnOneLine(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	var deps []addrs.AbsResource
	for i := range 5 {
		deps = append(deps, addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("d%d", i)}.Absolute(addrs.RootModule))
	}
	deps = append(deps, addrs.Resource{Mode: addrs.Data, Type: "t", Name: "x"}.Absolute(`module.m["<k>"]`))
	s := state.New()
	for i, n := range []int{0, 1, 6} {
		addr := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
		obj := &state.Object{AttrsFlat: map[string]string{"id": "a b", "tags.%": "0"}, Dependencies: deps[:n]}
		s.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
	}
	doc, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`\n *`).ReplaceAll(doc, nil)
	got, err := AppendLine([]byte("x"), s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("x"), want...)) {
		t.Errorf("AppendLine:\n%s\nwant x and\n%s", got, want)
	}
}
