package dag_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/dag"
)

func TestDOT(t *testing.T) {
	type node struct{ name, kind string }
	tests := []struct {
		name  string
		build func() *dag.Graph[node]
		opts  dag.DOTOptions[node]
		want  string
	}{
		{
			name:  "empty",
			build: dag.New[node],
			want:  "digraph {\n}\n",
		},
		{
			name: "labels, attributes and escaping",
			build: func() *dag.Graph[node] {
				g := dag.New[node]()
				g.Connect(node{"a", "data"}, node{`back\slash`, "res"})
				g.Connect(node{"a", "data"}, node{"line\nbreak\r", "res"})
				g.Connect(node{"ctl\x01", "res"}, node{`back\slash`, "res"})
				g.Add(node{"same", "res"})
				g.Add(node{"same", "data"}) // same label, distinct node
				return g
			},
			opts: dag.DOTOptions[node]{
				GraphName:  `my "graph"`,
				GraphAttrs: map[string]string{"rankdir": "LR", "compound": "true"},
				Name:       func(n node) string { return n.name },
				NodeAttrs: func(n node) map[string]string {
					if n.kind == "data" {
						return map[string]string{"style": "dashed", "shape": "note"}
					}
					return nil
				},
			},
			want: `digraph "my \"graph\"" {
	"compound"="true";
	"rankdir"="LR";
	"n0" [label="a", "shape"="note", "style"="dashed"];
	"n1" [label="back\\slash"];
	"n2" [label="line\nbreak"];
	"n3" [label="ctl\\x01"];
	"n4" [label="same"];
	"n5" [label="same", "shape"="note", "style"="dashed"];
	"n0" -> "n1";
	"n0" -> "n2";
	"n3" -> "n1";
}
`,
		},
		{
			name: "label attribute replaces Name, removed nodes leave no gap",
			build: func() *dag.Graph[node] {
				g := dag.New[node]()
				g.Connect(node{"x", ""}, node{"y", ""})
				g.Connect(node{"y", ""}, node{"z", ""})
				g.Remove(node{"x", ""})
				return g
			},
			opts: dag.DOTOptions[node]{
				NodeAttrs: func(n node) map[string]string { return map[string]string{"label": strings.ToUpper(n.name)} },
			},
			want: "digraph {\n\t\"n0\" [label=\"Y\"];\n\t\"n1\" [label=\"Z\"];\n\t\"n0\" -> \"n1\";\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.build().DOT(&b, tt.opts); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("DOT (-want +got):\n%s", diff)
			}
		})
	}
}

type failingWriter struct{}

var errWrite = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestDOTReturnsWriteError(t *testing.T) {
	g := dag.New[int]()
	g.Connect(1, 2)
	if err := g.DOT(failingWriter{}, dag.DOTOptions[int]{}); !errors.Is(err, errWrite) {
		t.Errorf("DOT error = %v, want %v", err, errWrite)
	}
}
