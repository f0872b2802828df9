package graphview

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/browsertest"
	"github.com/rig-iac/rig/internal/plan"
)

// protectedDocument is the example plan's document with a protection
// recorded for its first change that is not a delete, and its first
// delete refused.
func protectedDocument(t *testing.T) (d *Document, protected, refused string) {
	t.Helper()
	p := examplePlan(t)
	for _, c := range p.Changes {
		switch {
		case c.Action == plan.Delete && refused == "":
			c.RefusedBy = "main.tf:3"
			refused = c.Addr.String()
		case c.Action != plan.Delete && protected == "":
			c.PreventDestroy = "main.tf:9"
			protected = c.Addr.String()
		}
	}
	if protected == "" || refused == "" {
		t.Fatal("the example plan has no delete, or nothing else")
	}
	g, ds := apply.Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return Build(g, p), protected, refused
}

// An object whose prevent_destroy is recorded carries where it was set,
// and a delete the plan refuses where the protection that refuses it was
// set; the static image draws a padlock on both and outlines the refused
// delete.
func TestProtectionMarks(t *testing.T) {
	d, protected, refused := protectedDocument(t)
	var marked, refusedN int
	for _, n := range d.Nodes {
		switch {
		case n.Refused != "":
			refusedN++
			if n.Refused != "main.tf:3" || n.Action != ActionDelete || !strings.HasPrefix(n.Address, refused) {
				t.Errorf("refused node %+v", n)
			}
		case n.Protected != "":
			marked++
			if n.Protected != "main.tf:9" || !strings.HasPrefix(n.Address, protected) {
				t.Errorf("protected node %+v", n)
			}
		}
	}
	if marked == 0 || refusedN != 1 {
		t.Errorf("%d protected and %d refused nodes, want some and 1", marked, refusedN)
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, d, LayoutOf(d)); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	if got := strings.Count(svg, `class="protected"`); got != marked+refusedN {
		t.Errorf("%d padlocks drawn, want %d", got, marked+refusedN)
	}
	if got := strings.Count(svg, `class="refused"`); got != 1 {
		t.Errorf("%d refused outlines drawn, want 1", got)
	}

	// Without records, no marks: the example's image is unchanged.
	plain := Build(exampleGraph(t), nil)
	buf.Reset()
	if err := WriteSVG(&buf, plain, LayoutOf(plain)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "protected") || strings.Contains(buf.String(), "refused") {
		t.Error("marks drawn without any recorded protection")
	}
}

// The page draws the marks, names them in its legend, and its side panel
// says where the protection was set and that the delete is refused.
func TestProtectionMarksOnPage(t *testing.T) {
	d, _, _ := protectedDocument(t)
	b := browsertest.Start(t, 1280, 720)
	b.Open(t, writePage(t, d), "body[data-ready]", 30*time.Second)
	legend := browsertest.Eval[string](t, b, `document.body.innerText`)
	if !strings.Contains(legend, "prevent_destroy recorded · dashed red: destroy refused") {
		t.Errorf("the legend does not name the marks:\n%s", legend)
	}
	for _, n := range d.Nodes {
		want := ""
		switch {
		case n.Refused != "":
			want = "destroy refused: protected by the prevent_destroy set at main.tf:3, recorded in state"
		case n.Protected != "":
			want = "prevent_destroy set at main.tf:9, recorded in state with the object"
		default:
			continue
		}
		browsertest.Eval[bool](t, b, fmt.Sprintf(`window.rigGraph.select(%d), true`, n.ID))
		if panel := browsertest.Eval[string](t, b, `document.getElementById("panel").innerText`); !strings.Contains(panel, want) {
			t.Errorf("the side panel of %s does not say %q:\n%s", n.Label, want, panel)
		}
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
}
