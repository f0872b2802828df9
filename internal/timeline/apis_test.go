package timeline

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/golden"
)

// planRecord is the record of a plan whose reads of two provider
// configurations ran with adaptive limits.
func planRecord() *Record {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	return &Record{
		FormatVersion: FormatVersion, Command: "plan", Started: t0, Finished: at(3000), Parallelism: 10,
		APIs: []API{{
			Provider: `provider["registry.terraform.io/rig-iac/slowcloud"]`, Ceiling: 64,
			Steps: []APIStep{{at(0), 10, 10}, {at(500), 20, 20}, {at(1000), 40, 40}, {at(1500), 24, 24}, {at(2500), 0, 25}},
		}, {
			Provider: `provider["registry.terraform.io/hashicorp/aws"].west`, Ceiling: 64,
			Steps: []APIStep{{at(200), 3, 10}, {at(900), 0, 10}},
		}},
	}
}

// TestPlanPage checks the page of a plan's record: no operations, a plot
// of the calls in flight and the adaptive limit per provider
// configuration, against its golden file.
func TestPlanPage(t *testing.T) {
	page := writePage(t, planRecord())
	golden.Check(t, "testdata/plan.html", page)
	plots := regexp.MustCompile(`<svg class="api" data-provider="([^"]*)" data-peak="(\d+)" data-ceiling="(\d+)"`).FindAllSubmatch(page, -1)
	if len(plots) != 2 || string(plots[0][2]) != "40" || string(plots[1][2]) != "3" || string(plots[0][3]) != "64" {
		t.Errorf("API plots %q, want two: peaks 40 and 3, ceiling 64", plots)
	}
	if bytes.Contains(page, []byte(`id="gantt"`)) {
		t.Error("a plan's page has a Gantt chart")
	}
	for _, svg := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(page, -1) {
		if err := xml.Unmarshal(svg, new(struct{})); err != nil {
			t.Errorf("SVG not well-formed: %v", err)
		}
	}
}

// TestAPIsRoundTrip: the API series survive the record's JSON.
func TestAPIsRoundTrip(t *testing.T) {
	r := planRecord()
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.APIs) != 2 || len(back.APIs[0].Steps) != 5 || !back.APIs[0].Steps[4].At.Equal(r.APIs[0].Steps[4].At) || back.APIs[0].Steps[3].Limit != 24 {
		t.Errorf("read back %+v", back.APIs)
	}
}
