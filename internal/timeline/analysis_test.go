package timeline

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/graphview"
)

// spans builds a record of nodes given as [start, end] seconds after t0
// (end < 0 for a junction) and edges.
func spans(nodes [][2]float64, edges ...Edge) *Record {
	r := &Record{Started: t0, Parallelism: 10, Edges: edges}
	for i, s := range nodes {
		n := Node{Label: string(rune('a' + i)), Action: graphview.ActionCreate, Outcome: OK,
			Start: t0.Add(time.Duration(s[0] * float64(time.Second))), End: t0.Add(time.Duration(s[1] * float64(time.Second)))}
		if s[1] < 0 {
			n = Node{Label: string(rune('a' + i)), Action: graphview.ActionJunction, Outcome: NotRun}
		}
		r.Nodes = append(r.Nodes, n)
	}
	r.Finished = t0.Add(10 * time.Second)
	return r
}

func TestCriticalPath(t *testing.T) {
	tests := []struct {
		name string
		rec  *Record
		want []int
	}{
		{"a chain is its own critical path", spans([][2]float64{{0, 1}, {1, 3}, {3, 4}}, Edge{0, 1}, Edge{1, 2}), []int{0, 1, 2}},
		{"the longer branch of a diamond", spans([][2]float64{{0, 1}, {1, 2}, {1, 5}, {5, 6}}, Edge{0, 1}, Edge{0, 2}, Edge{1, 3}, Edge{2, 3}), []int{0, 2, 3}},
		{"through a junction, which is left out", spans([][2]float64{{0, 2}, {0, -1}, {2, 3}}, Edge{0, 1}, Edge{1, 2}), []int{0, 2}},
		{"an independent long operation beats a chain of short ones", spans([][2]float64{{0, 1}, {1, 2}, {0, 5}}, Edge{0, 1}), []int{2}},
		{"of equal paths, the one ending at the lowest index", spans([][2]float64{{0, 1}, {0, 1}}), []int{0}},
		{"nothing ran", spans([][2]float64{{0, -1}}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.rec.CriticalPath()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestConcurrency(t *testing.T) {
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	// c starts when b ends: they do not count as running together.
	r := spans([][2]float64{{0, 2}, {1, 3}, {3, 4}, {0, -1}, {5, 6}})
	r.Limits = []Limit{{Name: "slow", N: 1}}
	r.Nodes[1].Limits = []string{"slow"}
	r.Nodes[2].Limits = []string{"slow", "unknown"}
	want := []Series{
		{Name: "", Limit: 10, Peak: 2, Steps: []Step{{0, 1}, {sec(1), 2}, {sec(2), 1}, {sec(3), 1}, {sec(4), 0}, {sec(5), 1}, {sec(6), 0}}},
		{Name: "slow", Limit: 1, Peak: 1, Steps: []Step{{sec(1), 1}, {sec(3), 1}, {sec(4), 0}}},
	}
	if diff := cmp.Diff(want, r.Concurrency()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestRan: the operations that ran, by start time.
func TestRan(t *testing.T) {
	r := spans([][2]float64{{2, 3}, {0, -1}, {0, 1}, {2, 4}})
	if diff := cmp.Diff([]int{2, 0, 3}, r.Ran()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
