package statefile

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// bigState builds n terraform_data instances in n/100 resources of 100
// instances each (count), each depending on the resource before it, as
// terraform_data attributes look after apply.
func bigState(tb testing.TB, n int) *state.State {
	tb.Helper()
	s := state.New()
	s.TerraformVersion = "1.10.0"
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	var prev []addrs.AbsResource
	for i := range n {
		r := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i/100)}.Absolute(addrs.RootModule)
		if i%100 == 0 && i > 0 {
			prev = []addrs.AbsResource{addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i/100-1)}.Absolute(addrs.RootModule)}
		}
		attrs := fmt.Sprintf(`{"id":"%08x-0000-4000-8000-%012x","input":{"value":"value-%d","type":"string"},"output":{"value":"value-%d","type":"string"},"triggers_replace":null}`, i, i, i, i)
		s.SetObject(addrs.ObjectAddr{Instance: r.Instance(addrs.IntKey(i % 100))},
			&state.Object{AttrsJSON: json.RawMessage(attrs), Dependencies: prev}, pc)
	}
	s.Outputs["n"] = state.OutputValue{Value: cty.NumberIntVal(int64(n))}
	return s
}

func BenchmarkMarshal100k(b *testing.B) {
	s := bigState(b, 100_000)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		out, err := Marshal(s)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.SetBytes(int64(size))
}

func BenchmarkWrite100k(b *testing.B) {
	s := bigState(b, 100_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse100k(b *testing.B) {
	data, err := Marshal(bigState(b, 100_000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
