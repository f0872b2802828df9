package graphview

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/browsertest"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/golden"
)

// writePage writes the page of d into a temporary directory and returns its path.
func writePage(t *testing.T, d *Document) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, d, LayoutOf(d)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "graph.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// selection is what window.rigGraph.selection() returns.
type selection struct {
	Selected    int   `json:"selected"`
	DirectPreds []int `json:"directPreds"`
	Preds       []int `json:"preds"`
	DirectSuccs []int `json:"directSuccs"`
	Succs       []int `json:"succs"`
}

// related computes, from the document, the operations v waits for and
// that wait for it: directly (through junctions only) and in all.
func related(d *Document, v int) selection {
	in := map[int][]int{}
	out := map[int][]int{}
	for _, e := range d.Edges {
		out[e.From] = append(out[e.From], e.To)
		in[e.To] = append(in[e.To], e.From)
	}
	reach := func(adj map[int][]int, throughOps bool) []int {
		seen := map[int]bool{v: true}
		stack := []int{v}
		var ops []int
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range adj[u] {
				if seen[w] {
					continue
				}
				seen[w] = true
				if d.Nodes[w].IsOperation() {
					ops = append(ops, w)
					if !throughOps {
						continue
					}
				}
				stack = append(stack, w)
			}
		}
		slices.Sort(ops)
		if ops == nil {
			ops = []int{}
		}
		return ops
	}
	return selection{Selected: v, DirectPreds: reach(in, false), Preds: reach(in, true), DirectSuccs: reach(out, false), Succs: reach(out, true)}
}

func nodeID(t *testing.T, d *Document, label string) int {
	t.Helper()
	for _, n := range d.Nodes {
		if n.Label == label {
			return n.ID
		}
	}
	t.Fatalf("no node %q", label)
	return -1
}

func operations(d *Document) int {
	n := 0
	for _, nd := range d.Nodes {
		if nd.IsOperation() {
			n++
		}
	}
	return n
}

type point struct{ X, Y float64 }

// TestGraphPage loads the example plan's page in Chromium and uses it as
// a reader would: it lists every operation, a click on a node highlights
// exactly what it waits for and what waits for it, the search finds a
// node, and nothing is reported on the console.
func TestGraphPage(t *testing.T) {
	b := browsertest.Start(t, 1280, 720)
	d := exampleDocument(t)
	b.Open(t, writePage(t, d), "body[data-ready]", 30*time.Second)

	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#ops li").length`); got != operations(d) {
		t.Errorf("%d entries in the list of operations, want %d", got, operations(d))
	}
	if got := browsertest.Eval[int](t, b, `window.rigGraph.operations`); got != operations(d) {
		t.Errorf("rigGraph.operations = %d, want %d", got, operations(d))
	}

	for _, label := range []string{
		"module.app.terraform_data.lb (update)",
		"module.app.terraform_data.image (create)",
		"module.network.terraform_data.subnet[\"c\"] (destroy)",
	} {
		t.Run("click "+label, func(t *testing.T) {
			v := nodeID(t, d, label)
			p := browsertest.Eval[point](t, b, fmt.Sprintf(`window.rigGraph.screenPoint(%d)`, v))
			browsertest.Do(t, b, chromedp.MouseClickXY(p.X, p.Y))
			got := browsertest.Eval[selection](t, b, `window.rigGraph.selection()`)
			if diff := cmp.Diff(related(d, v), got); diff != "" {
				t.Errorf("highlighted (-want +got)\n%s", diff)
			}
			panel := browsertest.Eval[string](t, b, `document.getElementById("panel").innerText`)
			for _, want := range []string{label, "Action", "Create before destroy", "Waits for", "Waited for by"} {
				if !bytes.Contains([]byte(panel), []byte(want)) {
					t.Errorf("the side panel does not show %q:\n%s", want, panel)
				}
			}
		})
	}

	t.Run("the drawing keeps its scale when the side panel opens", func(t *testing.T) {
		if !browsertest.Eval[bool](t, b, `!document.getElementById("panel").hidden`) {
			t.Fatal("the side panel is not open")
		}
		// The canvas's backing store follows its size at the next frame.
		same := `(() => { const c = document.getElementById("view"); return c.width / devicePixelRatio === c.getBoundingClientRect().width; })()`
		ctx, cancel := context.WithTimeout(b.Ctx, 10*time.Second)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](same)); err != nil {
			got := browsertest.Eval[[]float64](t, b, `(() => { const c = document.getElementById("view"); return [c.width / devicePixelRatio, c.getBoundingClientRect().width]; })()`)
			t.Errorf("canvas backing width %v, shown width %v with the panel open", got[0], got[1])
		}
	})

	t.Run("inherited create_before_destroy is shown", func(t *testing.T) {
		browsertest.Eval[bool](t, b, fmt.Sprintf(`window.rigGraph.select(%d), true`, nodeID(t, d, "module.app.terraform_data.image (create)")))
		panel := browsertest.Eval[string](t, b, `document.getElementById("panel").innerText`)
		for _, want := range []string{
			"yes, inherited from module.app.terraform_data.launch_template",
			// The reasons and the rules explain gives.
			"create_before_destroy is inherited from module.app.terraform_data.launch_template",
			"dependency: module.app.terraform_data.launch_template depends on module.app.terraform_data.image",
		} {
			if !bytes.Contains([]byte(panel), []byte(want)) {
				t.Errorf("the side panel does not say %q:\n%s", want, panel)
			}
		}
		if bytes.Contains([]byte(panel), []byte("not recorded")) {
			t.Errorf("the side panel lacks rules:\n%s", panel)
		}
	})

	t.Run("search", func(t *testing.T) {
		browsertest.Do(t, b, chromedp.SendKeys(chromedp.CSS("#search"), "route_tab"), chromedp.WaitVisible(chromedp.CSS("#results li")))
		results := browsertest.Eval[[]string](t, b, `[...document.querySelectorAll("#results li")].map(li => li.textContent)`)
		want := []string{"module.network.terraform_data.route_table (update)"}
		if diff := cmp.Diff(want, results); diff != "" {
			t.Fatalf("search results (-want +got)\n%s", diff)
		}
		browsertest.Do(t, b, chromedp.Click(chromedp.CSS("#results li")))
		if got := browsertest.Eval[selection](t, b, `window.rigGraph.selection()`); got.Selected != nodeID(t, d, want[0]) {
			t.Errorf("selected node %d after picking the result, want %d", got.Selected, nodeID(t, d, want[0]))
		}
	})

	t.Run("a click on a module's title collapses it, another opens it", func(t *testing.T) {
		browsertest.Eval[bool](t, b, `window.rigGraph.select(-1), window.rigGraph.fit(), true`)
		p := browsertest.Eval[point](t, b, `window.rigGraph.bandPoint("module.app")`)
		browsertest.Do(t, b, chromedp.MouseClickXY(p.X, p.Y))
		if got := browsertest.Eval[[]string](t, b, `window.rigGraph.collapsed()`); !slices.Equal(got, []string{"module.app"}) {
			t.Errorf("collapsed = %q after a click on the title of module.app", got)
		}
		p = browsertest.Eval[point](t, b, `window.rigGraph.bandPoint("module.app")`)
		browsertest.Do(t, b, chromedp.MouseClickXY(p.X, p.Y))
		if got := browsertest.Eval[[]string](t, b, `window.rigGraph.collapsed()`); len(got) != 0 {
			t.Errorf("collapsed = %q after a second click", got)
		}
	})

	t.Run("collapse a module", func(t *testing.T) {
		browsertest.Eval[bool](t, b, `window.rigGraph.select(-1), window.rigGraph.toggleModule("module.network"), true`)
		if got := browsertest.Eval[[]string](t, b, `window.rigGraph.collapsed()`); !slices.Equal(got, []string{"module.network"}) {
			t.Errorf("collapsed = %q, want [module.network]", got)
		}
		// Selecting a node of a collapsed module opens it.
		browsertest.Eval[bool](t, b, fmt.Sprintf(`window.rigGraph.select(%d), true`, nodeID(t, d, "module.network.terraform_data.route_table (update)")))
		if got := browsertest.Eval[[]string](t, b, `window.rigGraph.collapsed()`); len(got) != 0 {
			t.Errorf("collapsed = %q after selecting a node inside, want none", got)
		}
	})

	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}

	if *golden.Update {
		lb := nodeID(t, d, "module.app.terraform_data.image (create)")
		browsertest.Do(t, b, chromedp.EmulateViewport(2400, 800))
		browsertest.Eval[bool](t, b, `document.getElementById("search").value = "", document.getElementById("search").dispatchEvent(new Event("input")), true`)
		// Select first: the side panel it opens narrows the canvas, and
		// fitting then shows every operation in what is left.
		browsertest.Eval[bool](t, b, fmt.Sprintf(`window.rigGraph.select(%d), window.rigGraph.fit(), true`, lb))
		writeScreenshot(t, b, "../../docs/img/graph.png")
	}
}

// writeScreenshot writes a PNG of the window to path, keeping it small.
func writeScreenshot(t *testing.T, b *browsertest.Browser, path string) {
	t.Helper()
	png := browsertest.Screenshot(t, b)
	if len(png) > 300<<10 {
		t.Fatalf("screenshot of %d bytes, want less than 300 KB", len(png))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGraphPageLarge loads the page of a 10,000-operation plan: it must
// list every operation, draw, and answer a click without freezing. The
// time is reported; only a generous bound fails the test.
func TestGraphPageLarge(t *testing.T) {
	b := browsertest.Start(t, 1280, 720)
	d := Build(largeGraph(t), nil)
	path := writePage(t, d)
	elapsed := b.Open(t, path, "body[data-ready]", 60*time.Second)
	renderMs := browsertest.Eval[string](t, b, `document.body.dataset.renderMs`)
	t.Logf("%d operations, %d nodes, %d edges: page ready in %v (script %s ms)", operations(d), len(d.Nodes), len(d.Edges), elapsed.Round(time.Millisecond), renderMs)
	if elapsed > 30*time.Second {
		t.Errorf("the page took %v to become ready, want a few seconds", elapsed)
	}
	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#ops li").length`); got != 10000 {
		t.Errorf("%d entries in the list of operations, want 10000", got)
	}
	v := nodeID(t, d, "module.m5.terraform_data.r5[50] (create)")
	start := time.Now()
	p := browsertest.Eval[point](t, b, fmt.Sprintf(`window.rigGraph.screenPoint(%d)`, v))
	browsertest.Do(t, b, chromedp.MouseClickXY(p.X, p.Y))
	got := browsertest.Eval[selection](t, b, `window.rigGraph.selection()`)
	t.Logf("click and highlight: %v", time.Since(start).Round(time.Millisecond))
	want := related(d, v)
	if got.Selected != v || len(got.Preds) != len(want.Preds) || len(got.Succs) != len(want.Succs) {
		t.Errorf("selected %d with %d before and %d after, want %d with %d and %d", got.Selected, len(got.Preds), len(got.Succs), v, len(want.Preds), len(want.Succs))
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
}

// TestResourceGraphPage loads the page of a resource graph: one entry
// per resource, and a click shows what it depends on.
func TestResourceGraphPage(t *testing.T) {
	b := browsertest.Start(t, 1280, 720)
	g := dag.New[addrs.ConfigResource]()
	res := func(mod addrs.Module, name string) addrs.ConfigResource {
		return addrs.ConfigResource{Module: mod, Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}}
	}
	net := addrs.RootModuleStatic.Child("net")
	vpc, subnet, app := res(net, "vpc"), res(net, "subnet"), res(addrs.RootModuleStatic, "app")
	g.Add(vpc)
	g.Add(subnet)
	g.Add(app)
	g.Connect(vpc, subnet)
	g.Connect(subnet, app)
	d := FromResources(g)
	b.Open(t, writePage(t, d), "body[data-ready]", 30*time.Second)
	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#ops li").length`); got != 3 {
		t.Errorf("%d entries in the list, want 3", got)
	}
	v := nodeID(t, d, "terraform_data.app")
	p := browsertest.Eval[point](t, b, fmt.Sprintf(`window.rigGraph.screenPoint(%d)`, v))
	browsertest.Do(t, b, chromedp.MouseClickXY(p.X, p.Y))
	got := browsertest.Eval[selection](t, b, `window.rigGraph.selection()`)
	if diff := cmp.Diff(related(d, v), got); diff != "" {
		t.Errorf("highlighted (-want +got)\n%s", diff)
	}
	panel := browsertest.Eval[string](t, b, `document.getElementById("panel").innerText`)
	if !strings.Contains(panel, "Depends on (1 direct, 2 in all)") || !strings.Contains(panel, "module.net.terraform_data.subnet") {
		t.Errorf("side panel:\n%s", panel)
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
}

// TestEmptyGraphPage: a plan with nothing to do draws an empty page
// without errors.
func TestEmptyGraphPage(t *testing.T) {
	b := browsertest.Start(t, 800, 600)
	b.Open(t, writePage(t, &Document{Title: "Operations", Kind: KindOperations, Nodes: []Node{}, Edges: []Edge{}}), "body[data-ready]", 30*time.Second)
	if got := browsertest.Eval[string](t, b, `document.getElementById("stats").textContent`); got != "0 operations, 0 edges, 0 layers" {
		t.Errorf("stats = %q", got)
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
}
