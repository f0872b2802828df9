package diag

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestSortBySource orders diagnostics as OpenTofu prints them, with a
// fixed order among those at the same place.
func TestSortBySource(t *testing.T) {
	at := func(file string, start, end int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
	}
	ds := Diagnostics{
		{Severity: Error, Summary: "in a module", Subject: at("m/main.tf", 0, 1)},
		{Severity: Error, Summary: "later", Subject: at("main.tf", 40, 45)},
		{Severity: Error, Summary: "same place b", Subject: at("main.tf", 26, 27)},
		{Severity: Error, Summary: "same place a", Subject: at("main.tf", 26, 27)},
		{Severity: Error, Summary: "wider", Subject: at("main.tf", 26, 30)},
		{Severity: Error, Summary: "nowhere"},
		{Severity: Warning, Summary: "warning", Subject: at("z.tf", 99, 100)},
		{Severity: Error, Summary: "other file", Subject: at("b.tf", 0, 1)},
	}
	want := []string{"warning", "nowhere", "other file", "same place a", "same place b", "wider", "later", "in a module"}
	got := SortBySource(ds)
	for i, d := range got {
		if d.Summary != want[i] {
			t.Fatalf("order %v, want %v", summaries(got), want)
		}
	}
}

func summaries(ds Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Summary)
	}
	return out
}
