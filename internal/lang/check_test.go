package lang

import (
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/txtartest"
)

// update is the -update flag, declared by package golden: it rewrites
// the want sections of testdata/check/*.txtar.
var update = golden.Update

// formatDiags renders diagnostics as the want sections read them.
var formatDiags = txtartest.Diagnostics

// loadCheckScenario loads the configuration files of a txtar archive; the
// configuration itself must load without errors.
func loadCheckScenario(t *testing.T, path string) (*config.Module, *txtar.Archive, int) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	wantIdx := -1
	for i, f := range ar.Files {
		if f.Name == "want" {
			wantIdx = i
			continue
		}
		files[f.Name] = f.Data
	}
	m, diags := config.LoadFiles(files)
	if diags.HasErrors() {
		t.Fatalf("configuration does not load:\n%s", formatDiags(diags))
	}
	return m, ar, wantIdx
}

// TestCheckReferencesScenarios runs CheckReferences on each
// testdata/check/*.txtar and compares the diagnostics with "want".
func TestCheckReferencesScenarios(t *testing.T) {
	txtartest.Run(t, "testdata/check/*.txtar", func(t *testing.T, path string, _ *txtar.Archive) {
		m, ar, _ := loadCheckScenario(t, path)
		txtartest.Check(t, path, ar, "want", formatDiags(CheckReferences(m)), *update)
	})
}

func TestCheckReferencesDetails(t *testing.T) {
	tests := []struct {
		scenario string
		summary  string
		detail   string
	}{
		{"undeclared", "Reference to undeclared input variable", `An input variable with the name "nam" has not been declared. Did you mean "name"?`},
		{"undeclared", "Reference to undeclared input variable", `An input variable with the name "undeclared" has not been declared. This variable can be declared with a variable "undeclared" {} block.`},
		{"undeclared", "Reference to undeclared resource", `There is no managed resource "terraform_data" "missing" definition in the root module.`},
		{"undeclared", "Reference to undeclared local value", `A local value with the name "nope" has not been declared.`},
		{"data_suggestion", "Reference to undeclared resource", "There is no managed resource \"null_data_source\" \"d\" definition in the root module.\n\nDid you mean the data resource data.null_data_source.d?"},
		{"self", "Self-referential block", "Configuration for terraform_data.b may not refer to itself."},
		{"replace_triggered_by", "Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression."},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.summary, func(t *testing.T) {
			m, _, _ := loadCheckScenario(t, "testdata/check/"+tt.scenario+".txtar")
			for _, d := range CheckReferences(m) {
				if d.Summary == tt.summary && d.Detail == tt.detail {
					return
				}
			}
			t.Errorf("no %q diagnostic with detail %q", tt.summary, tt.detail)
		})
	}
}

func TestCheckReferencesRanges(t *testing.T) {
	m, _, _ := loadCheckScenario(t, "testdata/check/undeclared.txtar")
	for _, d := range CheckReferences(m) {
		if d.Summary == "Reference to undeclared resource" && d.Subject.Start.Line == 8 {
			if d.Subject.Start.Column != 12 || d.Subject.End.Column != 34 {
				t.Errorf("range = %v, want columns 12-34 (terraform_data.missing)", d.Subject)
			}
			return
		}
	}
	t.Error("undeclared resource diagnostic not found")
}
