package dag_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/rig-iac/rig/internal/dag"
)

func Example() {
	// An edge from → to means "from must finish before to starts".
	g := dag.New[string]()
	g.Connect("network", "subnet")
	g.Connect("subnet", "instance")
	g.Connect("network", "instance")
	g.Add("bucket")

	fmt.Println(g.Nodes())
	fmt.Println(g.Successors("network"), g.Predecessors("instance"))
	fmt.Println(g.Len(), g.EdgeCount())
	// Output:
	// [network subnet instance bucket]
	// [subnet instance] [subnet network]
	// 4 3
}

func ExampleGraph_TopoOrder() {
	g := dag.New[string]()
	g.Add("c")
	g.Add("b")
	g.Add("a")
	g.Connect("a", "c")

	order, err := g.TopoOrder()
	fmt.Println(order, err)
	// Output:
	// [b a c] <nil>
}

func ExampleGraph_Cycles() {
	g := dag.New[string]()
	g.Connect("a", "b")
	g.Connect("b", "c")
	g.Connect("c", "a")
	g.Connect("c", "d")
	g.Connect("d", "d")

	for _, c := range g.Cycles() {
		fmt.Println(dag.FormatCycle(c, strings.ToUpper, " → "))
	}
	_, err := g.TopoOrder()
	var ce *dag.CycleError[string]
	fmt.Println(errors.As(err, &ce), err)
	// Output:
	// A → B → C → A
	// D → D
	// true graph has 2 cycles: a -> b -> c -> a; d -> d
}

func ExampleGraph_Waves() {
	g := dag.New[string]()
	g.Connect("vpc", "subnet_a")
	g.Connect("vpc", "subnet_b")
	g.Connect("subnet_a", "instance")
	g.Connect("subnet_b", "instance")
	g.Connect("vpc", "instance")

	waves, _ := g.Waves()
	for i, w := range waves {
		fmt.Println(i, w)
	}
	// Output:
	// 0 [vpc]
	// 1 [subnet_a subnet_b]
	// 2 [instance]
}

func ExampleGraph_TransitiveReduction() {
	g := dag.New[string]()
	g.Connect("vpc", "subnet")
	g.Connect("subnet", "instance")
	g.Connect("vpc", "instance") // implied by vpc → subnet → instance

	_ = g.TransitiveReduction()
	fmt.Println(g.Edges())
	// Output:
	// [{vpc subnet} {subnet instance}]
}

func ExampleWalk() {
	g := dag.New[string]()
	g.Connect("network", "subnet")
	g.Connect("subnet", "instance")
	g.Add("bucket")

	res := dag.Walk(context.Background(), g, func(ctx context.Context, k string) error {
		if k == "subnet" {
			return errors.New("create subnet: quota exceeded")
		}
		return nil
	}, dag.WalkOptions[string]{Limit: 4})

	for k, r := range res.All() {
		switch r.Outcome {
		case dag.SkippedDependencyFailed:
			fmt.Printf("%s: %v (%s failed)\n", k, r.Outcome, r.Cause)
		default:
			fmt.Printf("%s: %v\n", k, r.Outcome)
		}
	}
	fmt.Println(res.Err())
	// Output:
	// network: done
	// subnet: failed
	// instance: skipped: dependency failed (subnet failed)
	// bucket: done
	// create subnet: quota exceeded
}

func ExampleGraph_DOT() {
	g := dag.New[string]()
	g.Connect("a", `b "quoted"`)

	_ = g.DOT(os.Stdout, dag.DOTOptions[string]{
		GraphName:  "deps",
		GraphAttrs: map[string]string{"rankdir": "LR"},
	})
	// Output:
	// digraph "deps" {
	// 	"rankdir"="LR";
	// 	"n0" [label="a"];
	// 	"n1" [label="b \"quoted\""];
	// 	"n0" -> "n1";
	// }
}

func ExampleGraph_Mermaid() {
	g := dag.New[string]()
	g.Connect(`module.web["a"]`, "aws_lb.main")
	g.Connect(`module.web["a"]`, "<b>#1</b>")

	_ = g.Mermaid(os.Stdout, dag.MermaidOptions[string]{Direction: "LR"})
	// Output:
	// flowchart LR
	// 	n0["module.web[#quot;a#quot;]"]
	// 	n1["aws_lb.main"]
	// 	n2["#lt;b#gt;#35;1#lt;/b#gt;"]
	// 	n0 --> n1
	// 	n0 --> n2
}
