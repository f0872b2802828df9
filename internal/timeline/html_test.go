package timeline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/browsertest"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/plan/plantest"
)

func writePage(t *testing.T, r *Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHTML checks the page of the example's simulated apply against its
// golden file, and that it is self-contained.
func TestHTML(t *testing.T) {
	page := writePage(t, exampleRecord(t))
	golden.Check(t, "testdata/example.html", page)
	for _, re := range []string{`(?i)<script`, `(?i)<link\b`, `(?i)\bsrc\s*=`, `(?i)@import`, `(?i)url\(`} {
		if m := regexp.MustCompile(re).Find(page); m != nil {
			t.Errorf("the page is not self-contained: %q", m)
		}
	}
	// Every SVG is well-formed.
	for _, svg := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(page, -1) {
		if err := xml.Unmarshal(svg, new(struct{})); err != nil {
			t.Errorf("SVG not well-formed: %v", err)
		}
	}
}

// TestTimelinePage loads the timeline page in Chromium: no console
// errors, one bar per operation that ran, the critical path's bars
// marked, and one plot per limit class.
func TestTimelinePage(t *testing.T) {
	b := browsertest.Start(t, 1400, 900)
	r := exampleRecord(t)
	path := filepath.Join(t.TempDir(), "timeline.html")
	if err := os.WriteFile(path, writePage(t, r), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Open(t, path, "#gantt", 30*time.Second)

	if got, want := browsertest.Eval[int](t, b, `document.querySelectorAll("#gantt rect.bar").length`), len(r.Ran()); got != want {
		t.Errorf("%d bars, want %d (one per operation that ran)", got, want)
	}
	crit := r.CriticalPath()
	if len(crit) < 3 {
		t.Fatalf("critical path %v: the example should have a chain", crit)
	}
	gotCrit := browsertest.Eval[[]int](t, b, `[...document.querySelectorAll("#gantt rect.bar.critical")].map(e => Number(e.dataset.id)).sort((a, b) => a - b)`)
	wantCrit := append([]int(nil), crit...)
	slices.Sort(wantCrit)
	if fmt.Sprint(gotCrit) != fmt.Sprint(wantCrit) {
		t.Errorf("critical bars %v, want %v", gotCrit, wantCrit)
	}
	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#critical li").length`); got != len(crit) {
		t.Errorf("%d entries in the critical path list, want %d", got, len(crit))
	}
	// The critical path's bars are drawn differently from the others.
	styles := browsertest.Eval[[]string](t, b, `[document.querySelector("#gantt rect.bar.critical"), document.querySelector("#gantt rect.bar:not(.critical)")].map(e => getComputedStyle(e).stroke)`)
	if styles[0] == styles[1] {
		t.Errorf("critical and other bars both have stroke %q", styles[0])
	}
	plots := browsertest.Eval[[]string](t, b, `[...document.querySelectorAll("svg.concurrency")].map(e => e.id + " " + e.dataset.peak + "/" + e.dataset.limit)`)
	if want := []string{"concurrency-all 4/4", "concurrency-server 2/2"}; fmt.Sprint(plots) != fmt.Sprint(want) {
		t.Errorf("plots %q, want %q", plots, want)
	}
	// Bars sit where their times say: the first starts at the chart's left edge.
	first := browsertest.Eval[float64](t, b, `document.querySelector("#gantt rect.bar").x.baseVal.value`)
	if wantX := labelW + float64(r.Nodes[r.Ran()[0]].Start.Sub(r.Started))*chartW/float64(r.Finished.Sub(r.Started)); first < wantX-1 || first > wantX+1 {
		t.Errorf("first bar at x = %v, want %v", first, wantX)
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
	if *golden.Update {
		browsertest.Do(t, b, chromedp.EmulateViewport(1400, 900))
		png := browsertest.Screenshot(t, b)
		if len(png) > 300<<10 {
			t.Fatalf("screenshot of %d bytes, want less than 300 KB", len(png))
		}
		if err := os.WriteFile("../../docs/img/timeline.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTimelinePageLarge loads the timeline of a simulated apply of 10,000
// operations: every bar is there and the page reports no error. The time
// is reported; only a generous bound fails the test.
func TestTimelinePageLarge(t *testing.T) {
	b := browsertest.Start(t, 1400, 900)
	p, err := plantest.Parse(plantest.Large(10000))
	if err != nil {
		t.Fatal(err)
	}
	g, ds := apply.Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	r := simulation{parallelism: 10, dur: func(op apply.Op) time.Duration {
		return time.Duration(100+op.Addr.Resource.Key.Int()%7*20) * time.Millisecond
	}}.run(g)
	page := writePage(t, r)
	path := filepath.Join(t.TempDir(), "timeline.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	elapsed := b.Open(t, path, "#critical", 60*time.Second)
	t.Logf("10,000 operations: %d KB page, loaded in %v", len(page)>>10, elapsed.Round(time.Millisecond))
	if elapsed > 30*time.Second {
		t.Errorf("the page took %v to load, want a few seconds", elapsed)
	}
	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#gantt rect.bar").length`); got != 10000 {
		t.Errorf("%d bars, want 10000", got)
	}
	if got := browsertest.Eval[int](t, b, `document.querySelectorAll("#gantt rect.bar.critical").length`); got != len(r.CriticalPath()) || got < 100 {
		t.Errorf("%d critical bars, want %d (at least one per resource of the chain)", got, len(r.CriticalPath()))
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%q", errs)
	}
}
