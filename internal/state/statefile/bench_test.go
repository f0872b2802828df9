package statefile

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
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

// layeredState builds n terraform_data objects, each its own resource, in
// ten layers; an object of layer l records the resources of the layers
// before it that it depends on, 1 in 2 of them (up to 45 % of n entries),
// as a graph of distinct resource blocks records its transitive
// dependencies.
func layeredState(tb testing.TB, n int) *state.State {
	tb.Helper()
	s := state.New()
	s.TerraformVersion = "1.10.0"
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	width := n / 10
	addr := func(l, w int) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("l%d_%d", l, w)}.Absolute(addrs.RootModule)
	}
	for l := range 10 {
		for w := range width {
			var deps []addrs.AbsResource
			for pl := range l {
				for pw := (w + pl) % 2; pw < width; pw += 2 {
					deps = append(deps, addr(pl, pw))
				}
			}
			slices.SortFunc(deps, func(a, b addrs.AbsResource) int { return strings.Compare(a.String(), b.String()) })
			attrs := fmt.Sprintf(`{"id":"%08x-0000-4000-8000-%012x","input":{"value":"v1-%d","type":"string"},"output":{"value":"v1-%d","type":"string"},"triggers_replace":{"value":"t1","type":"string"}}`, l*width+w, l*width+w, w, w)
			s.SetObject(addrs.ObjectAddr{Instance: addr(l, w).Instance(addrs.NoKey)},
				&state.Object{AttrsJSON: json.RawMessage(attrs), Dependencies: deps}, pc)
		}
	}
	return s
}

// BenchmarkLayered encodes and decodes the state of 1,000 resources with
// long dependency lists (about 8 MB).
func BenchmarkLayered(b *testing.B) {
	s := layeredState(b, 1000)
	data, err := Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Marshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Marshal(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
