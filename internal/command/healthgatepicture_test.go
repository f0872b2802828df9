package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rig-iac/rig/internal/browsertest"
	"github.com/rig-iac/rig/internal/timeline"
)

// TestHealthGatedRollingTimeline: the timeline of a rolling replacement of
// six instances, two at a time, each ready after three reads, shows three
// staggered pairs of creates, each with its health gate's checks as bars
// within it, then the dependent's update and the six deposed objects
// destroyed. With -update (and Chromium) it draws the page as README's
// picture, docs/img/health-gated-rolling.png.
func TestHealthGatedRollingTimeline(t *testing.T) {
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": gatedConfig(world, "v1", "0", 6),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"40ms\"\n  timeout  = \"20s\"\n  batch    = 2\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", gatedConfig(world, "v2", "3", 6))
	page := filepath.Join(t.TempDir(), "timeline.html")
	rigOK(t, dir, "apply", "-auto-approve", "-no-color", "-parallelism=10", "-timeline="+page)

	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "rig-timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := timeline.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	creates, destroys := map[string]timeline.Node{}, map[string]timeline.Node{}
	var lb timeline.Node
	for _, n := range rec.Nodes {
		switch {
		case n.Action == "replace-create":
			creates[n.Address] = n
		case n.Action == "replace-delete":
			addr, _, _ := strings.Cut(n.Address, " (deposed object ")
			destroys[addr] = n
		case n.Address == "test_thing.lb":
			lb = n
		}
	}
	checks := map[int]int{}
	for _, a := range rec.Activities {
		if a.Kind == "gate-check" {
			checks[a.Operation]++
		}
	}
	if len(creates) != 6 || len(destroys) != 6 {
		t.Fatalf("%d creates and %d destroys on the timeline, want 6 and 6", len(creates), len(destroys))
	}
	for i := range 6 {
		addr := fmt.Sprintf("test_service.web[%d]", i)
		c := creates[addr]
		if prev := i - 2; prev >= 0 {
			for _, p := range []int{prev - prev%2, prev - prev%2 + 1} {
				if before := creates[fmt.Sprintf("test_service.web[%d]", p)]; c.Start.Before(before.End) {
					t.Errorf("%s started at %s, before %s of the batch before ended at %s", addr, c.Start, before.Address, before.End)
				}
			}
		}
		if lb.Start.Before(c.End) || destroys[addr].Start.Before(lb.End) {
			t.Errorf("%s: the dependent's update does not come between its create and the deposed object's destroy", addr)
		}
	}
	for i, n := range rec.Nodes {
		if n.Action == "replace-create" && checks[i] < 3 {
			t.Errorf("%s has %d gate checks on the timeline, want 3 or more", n.Address, checks[i])
		}
	}

	if *update {
		br := browsertest.Start(t, 1320, 680)
		br.Open(t, page, "#gantt", 30*time.Second)
		browsertest.Do(t, br, chromedp.EmulateViewport(1320, 680))
		png := browsertest.Screenshot(t, br)
		if len(png) > 300<<10 {
			t.Fatalf("screenshot of %d bytes, want less than 300 KB", len(png))
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "img", "health-gated-rolling.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
