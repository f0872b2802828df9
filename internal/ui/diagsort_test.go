package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/diag"
)

// Diagnostics are shown in OpenTofu's order: warnings first; then those
// without a source range; then by file, a file in fewer directories first,
// and by position; equal ones keep their order.
func TestSortDiagnostics(t *testing.T) {
	at := func(file string, start, end int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
	}
	ds := diag.Diagnostics{
		{Severity: diag.Error, Summary: "e main 10", Subject: at("main.tf", 10, 12)},
		{Severity: diag.Error, Summary: "e child", Subject: at("modules/child/main.tf", 1, 2)},
		{Severity: diag.Error, Summary: "e main 3", Subject: at("main.tf", 3, 9)},
		{Severity: diag.Error, Summary: "e none 1"},
		{Severity: diag.Warning, Summary: "w b.tf", Subject: at("b.tf", 1, 2)},
		{Severity: diag.Error, Summary: "e a.tf", Subject: at("a.tf", 50, 60)},
		{Severity: diag.Error, Summary: "e none 2"},
		{Severity: diag.Warning, Summary: "w none"},
		{Severity: diag.Error, Summary: "e main 3 longer", Subject: at("main.tf", 3, 20)},
	}
	var got []string
	for _, d := range SortDiagnostics(ds) {
		got = append(got, d.Summary)
	}
	want := []string{"w none", "w b.tf", "e none 1", "e none 2", "e a.tf", "e main 3", "e main 3 longer", "e main 10", "e child"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if ds[0].Summary != "e main 10" {
		t.Error("SortDiagnostics modified its argument")
	}
}

// ShowSplit writes the warnings to one stream and the errors to the other.
func TestShowSplit(t *testing.T) {
	ds := diag.Diagnostics{
		{Severity: diag.Error, Summary: "It broke", Detail: "Badly."},
		{Severity: diag.Warning, Summary: "Look out", Detail: "Maybe."},
	}
	var out, errs bytes.Buffer
	DiagnosticsView{}.ShowSplit(&out, &errs, ds, nil)
	if got := out.String(); !strings.Contains(got, "Warning: Look out") || strings.Contains(got, "It broke") {
		t.Errorf("standard output:\n%s", got)
	}
	if got := errs.String(); !strings.Contains(got, "Error: It broke") || strings.Contains(got, "Look out") {
		t.Errorf("standard error:\n%s", got)
	}
}
