package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestSavedPlanRefreshChanged: a saved -refresh=changed plan keeps which
// objects it planned as recorded: show says what the plan said, show
// -json lists them (rig_refresh) with why the others were read back,
// apply says it again, and the objects the apply did not write keep their
// refresh times, so the next plan reads none back.
func TestSavedPlanRefreshChanged(t *testing.T) {
	live := providertest.New()
	dir := appliedThings(t, live, 3, "", `refresh = "changed"`)
	mustRig(t, dir, "plan", "-no-color") // every time is known from now on

	reads := live.Reads.Total()
	planned := mustRig(t, dir, "plan", "-no-color", "-var", "v=w", "-out=tfplan")
	if got := live.Reads.Total() - reads; got != 1 {
		t.Fatalf("plan read %d objects back, want 1 (the one whose input changed)", got)
	}
	const note = "2 objects not refreshed, last refreshed "
	i := strings.Index(planned.stdout, note)
	if i < 0 {
		t.Fatalf("plan output has no note of the objects not refreshed:\n%s", planned.stdout)
	}
	said := planned.stdout[i : i+strings.Index(planned.stdout[i:], "\n")]

	shown := mustRig(t, dir, "show", "-no-color", "tfplan")
	if !strings.Contains(shown.stdout, said) {
		t.Errorf("show of the saved plan does not say %q:\n%s", said, shown.stdout)
	}

	var doc struct {
		Refresh struct {
			Mode         string `json:"mode"`
			MaxAge       int64  `json:"max_age_seconds"`
			NotRefreshed []struct {
				Address       string `json:"address"`
				LastRefreshed string `json:"last_refreshed"`
			} `json:"not_refreshed"`
			Refreshed []struct {
				Address string `json:"address"`
				Cause   string `json:"cause"`
			} `json:"refreshed"`
		} `json:"rig_refresh"`
	}
	if err := json.Unmarshal([]byte(mustRig(t, dir, "show", "-json", "tfplan").stdout), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Refresh
	if r.Mode != "changed" || r.MaxAge != 86400 || len(r.NotRefreshed) != 2 || r.NotRefreshed[0].Address != "test_thing.x[1]" ||
		r.NotRefreshed[1].Address != "test_thing.x[2]" || r.NotRefreshed[0].LastRefreshed == "" {
		t.Errorf("show -json rig_refresh: %+v", r)
	}
	if len(r.Refreshed) != 1 || r.Refreshed[0].Address != "test_thing.x[0]" || r.Refreshed[0].Cause != "would_change" {
		t.Errorf("show -json rig_refresh.refreshed: %+v", r.Refreshed)
	}

	if r := mustRig(t, dir, "explain", "-no-color", "test_thing.x[1]", "tfplan"); !strings.Contains(r.stdout, "refresh: not read back (-refresh=changed): planned as recorded") {
		t.Errorf("explain of the saved plan does not say the object was planned as recorded:\n%s", r.stdout)
	}

	applied := mustRig(t, dir, "apply", "-no-color", "tfplan")
	if !strings.Contains(applied.stdout, said) {
		t.Errorf("apply of the saved plan does not say %q:\n%s", said, applied.stdout)
	}
	reads = live.Reads.Total()
	after := mustRig(t, dir, "plan", "-no-color", "-var", "v=w")
	if got := live.Reads.Total() - reads; got != 0 || !strings.Contains(after.stdout, "3 objects not refreshed") {
		t.Errorf("plan after applying the saved plan read %d objects back, want 0:\n%s", got, after.stdout)
	}
}

// TestExplainRefresh: explain says of each object whether the plan read
// it back, and why, or planned it as recorded, and since when.
func TestExplainRefresh(t *testing.T) {
	live := providertest.New()
	dir := appliedThings(t, live, 2, `resource "test_thing" "y" {
  key   = "y"
  value = test_thing.x[0].value
}
`, "")
	steps := []struct {
		name string
		args []string
		// want holds, per address, what explain's refresh line says.
		want map[string]string
	}{
		{name: "times unknown", args: []string{"-refresh=changed"}, want: map[string]string{
			"test_thing.x[1]": "refresh: read back (-refresh=changed): rig knows no last refresh time for it"}},
		{name: "a plain plan", want: map[string]string{
			"test_thing.x[1]": "refresh: read back (every recorded object is, without -refresh=changed)"}},
		{name: "-refresh=false", args: []string{"-refresh=false"}, want: map[string]string{
			"test_thing.x[1]": "refresh: not read back (-refresh=false): planned against the object as recorded"}},
		{name: "nothing changed", args: []string{"-refresh=changed"}, want: map[string]string{
			"test_thing.x[1]": "refresh: not read back (-refresh=changed): planned as recorded; last read back 20",
			"test_thing.y":    "within refresh_max_age (24h0m), and its configuration, inputs and dependencies are unchanged"}},
		{name: "an input changed", args: []string{"-refresh=changed", "-var", "v=w"}, want: map[string]string{
			"test_thing.x[0]": "refresh: read back (-refresh=changed): planned as recorded it would change",
			"test_thing.x[1]": "refresh: not read back (-refresh=changed)",
			"test_thing.y":    "refresh: read back (-refresh=changed): test_thing.x, which it depends on, has a change"}},
	}
	for _, s := range steps {
		for addr, want := range s.want {
			r := mustRig(t, dir, append(append([]string{"explain", "-no-color"}, s.args...), addr)...)
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: explain %s does not say %q:\n%s", s.name, addr, want, r.stdout)
			}
		}
		// A plan records the times the next step uses (explain does not).
		mustRig(t, dir, append([]string{"plan", "-no-color"}, s.args...)...)
	}
	var doc struct {
		Objects []struct {
			Refresh struct {
				ReadBack bool   `json:"read_back"`
				Mode     string `json:"mode"`
				Cause    string `json:"cause"`
			} `json:"refresh"`
		} `json:"objects"`
	}
	r := mustRig(t, dir, "explain", "-json", "-refresh=changed", "-var", "v=w", "test_thing.x[0]")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Objects) != 1 || !doc.Objects[0].Refresh.ReadBack || doc.Objects[0].Refresh.Mode != "changed" || doc.Objects[0].Refresh.Cause != "would_change" {
		t.Errorf("explain -json: %s", r.stdout)
	}
}
