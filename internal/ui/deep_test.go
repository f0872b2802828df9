package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// deepTuple is [[…[1]…]], depth brackets deep.
func deepTuple(depth int) cty.Value {
	v := cty.NumberIntVal(1)
	for range depth {
		v = cty.TupleVal([]cty.Value{v})
	}
	return v
}

// deepOutputPlan is a plan creating one output, o, holding deepTuple(depth).
func deepOutputPlan(depth int) *plan.Plan {
	return &plan.Plan{Outputs: map[string]*plan.OutputChange{
		"o": {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: deepTuple(depth)},
	}}
}

// deepShape describes the lines of a rendered deepTuple: the opening
// line, then the line opening each nested level, the element, the line
// closing each nested level and the closing line.
type deepShape struct {
	first string
	open  func(level int) string
	leaf  func(depth int) string
	close func(level int) string
	last  string
}

func (s deepShape) lines(depth int) []string {
	out := []string{s.first}
	for level := 1; level < depth; level++ {
		out = append(out, s.open(level))
	}
	out = append(out, s.leaf(depth))
	for level := depth - 1; level >= 1; level-- {
		out = append(out, s.close(level))
	}
	return append(out, s.last)
}

// TestRenderDeepValue renders a list nested 3000 deep through each
// renderer of values and checks every line: the nesting must neither be
// cut short nor change the indentation OpenTofu prints.
func TestRenderDeepValue(t *testing.T) {
	const depth = 3000
	tests := []struct {
		name   string
		render func(t *testing.T) string
		shape  deepShape
	}{
		{
			name:   "plan output change",
			render: func(*testing.T) string { return renderOutputChanges(deepOutputPlan(depth), ropts{}) },
			shape: deepShape{
				first: "  + o = [",
				open:  func(l int) string { return pad(l) + "  + [" },
				leaf:  func(d int) string { return pad(d) + "  + 1," },
				close: func(l int) string { return pad(l) + "    ]," },
				last:  "    ]",
			},
		},
		{
			name: "state output",
			render: func(t *testing.T) string {
				s := state.New()
				s.Outputs["o"] = state.OutputValue{Value: deepTuple(depth)}
				var buf bytes.Buffer
				if err := RenderState(&buf, s, nil, RenderOptions{}); err != nil {
					t.Fatal(err)
				}
				_, out, ok := strings.Cut(buf.String(), "Outputs:\n\n")
				if !ok {
					t.Fatalf("no Outputs section in %.200q", buf.String())
				}
				return strings.TrimSuffix(out, "\n")
			},
			shape: deepShape{
				first: "o = [",
				open:  func(l int) string { return pad(l) + "[" },
				leaf:  func(d int) string { return pad(d) + "1," },
				close: func(l int) string { return pad(l) + "]," },
				last:  "]",
			},
		},
		{
			name:   "output value",
			render: func(*testing.T) string { return "o = " + FormatValue(deepTuple(depth), 0) },
			shape: deepShape{
				first: "o = [",
				open:  func(l int) string { return strings.Repeat("  ", l) + "[" },
				leaf:  func(d int) string { return strings.Repeat("  ", d) + "1," },
				close: func(l int) string { return strings.Repeat("  ", l) + "]," },
				last:  "]",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(tt.render(t), "\n")
			want := tt.shape.lines(depth)
			if len(got) != len(want) {
				t.Fatalf("%d lines, want %d; first %q, last %q", len(got), len(want), got[0], got[len(got)-1])
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("line %d = %q, want %q", i+1, got[i], want[i])
				}
			}
		})
	}
}

// BenchmarkRenderDeepList renders the plan's output change of a list
// nested depth deep. The output grows with the square of the depth (each
// line is indented by its level), so linear rendering shows as ns/op
// growing about 100 times for each tenfold depth.
func BenchmarkRenderDeepList(b *testing.B) {
	for _, depth := range []int{100, 1000, 3000} {
		p := deepOutputPlan(depth)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			for b.Loop() {
				renderOutputChanges(p, ropts{})
			}
		})
	}
}
