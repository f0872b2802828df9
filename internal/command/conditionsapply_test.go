package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// applyConditionScenarios are configurations whose conditions fail only
// at apply. before (when set) is applied first; main is then applied.
var applyConditionScenarios = []struct {
	name         string
	before, main string
	// wantEvents are the apply's JSON messages about operations and its
	// diagnostics, as streamEvents writes them.
	wantEvents []string
	// wantHuman are lines the human output must have, in order.
	wantHuman []string
	// wantResources are the resources the state records afterwards.
	wantResources []string
}{
	{
		// The object exists and is recorded; the failure is reported after
		// its create completed, and its dependent never starts.
		name: "postcondition after create",
		main: `
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    postcondition {
      condition     = self.output == "y"
      error_message = "The output of a must be y."
    }
  }
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`,
		wantEvents: []string{
			"apply_start create terraform_data.a",
			"apply_complete create terraform_data.a",
			"diagnostic error: Resource postcondition failed: The output of a must be y.",
		},
		wantHuman: []string{
			"terraform_data.a: Creating...",
			"terraform_data.a: Creation complete after",
			"Error: Resource postcondition failed",
			"The output of a must be y.",
		},
		wantResources: []string{"terraform_data.a"},
	},
	{
		// a has no change, but its postcondition refers to an object
		// created in the same run: it is checked once that object exists,
		// and stops a's dependent. c's precondition, unknown at plan too,
		// stops its create before it starts.
		name: "conditions of an unchanged object",
		before: `
resource "terraform_data" "a" {
  input = "a"
}
`,
		main: `
resource "terraform_data" "new" {
  input = "n"
}

resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    postcondition {
      condition     = terraform_data.new.output == "other"
      error_message = "The output of new is ${terraform_data.new.output}."
    }
  }
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

resource "terraform_data" "c" {
  input = "c"
  lifecycle {
    precondition {
      condition     = terraform_data.new.output == "other"
      error_message = "c: the output of new is ${terraform_data.new.output}."
    }
  }
}
`,
		wantEvents: []string{
			"apply_start create terraform_data.new",
			"apply_complete create terraform_data.new",
			"diagnostic error: Resource postcondition failed: The output of new is n.",
			"diagnostic error: Resource precondition failed: c: the output of new is n.",
		},
		wantHuman: []string{
			"terraform_data.new: Creation complete after",
			"Error: Resource",
		},
		wantResources: []string{"terraform_data.a", "terraform_data.new"},
	},
}

// streamEvents returns the operation messages of a -json apply
// ("apply_complete create terraform_data.a") and its diagnostics
// ("diagnostic error: SUMMARY: DETAIL"), the diagnostics sorted after the
// operations (they are reported once the walk is over, in any order).
func streamEvents(t *testing.T, stream string) []string {
	t.Helper()
	var ops, diags []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var msg struct {
			Type string `json:"type"`
			Hook struct {
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Action string `json:"action"`
			} `json:"hook"`
			Diagnostic struct {
				Severity, Summary, Detail string
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch msg.Type {
		case "apply_start", "apply_complete", "apply_errored":
			ops = append(ops, msg.Type+" "+msg.Hook.Action+" "+msg.Hook.Resource.Addr)
		case "diagnostic":
			if msg.Diagnostic.Severity == "error" {
				diags = append(diags, "diagnostic error: "+msg.Diagnostic.Summary+": "+msg.Diagnostic.Detail)
			}
		}
	}
	slices.Sort(diags)
	return append(ops, diags...)
}

// stateResources returns the resources a state file records with at least
// one object.
func stateResources(t *testing.T, dir string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []json.RawMessage
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range doc.Resources {
		if len(r.Instances) > 0 {
			out = append(out, r.Type+"."+r.Name)
		}
	}
	slices.Sort(out)
	return out
}

// TestConditionsFailingAtApply: a postcondition failing after a create is
// reported as OpenTofu reports it (the create complete, in the human
// output and the JSON stream, then the error), and so are the conditions
// of an unchanged object and a precondition that the plan could not
// evaluate; the state keeps the objects and records the failures in its
// check results.
func TestConditionsFailingAtApply(t *testing.T) {
	for _, sc := range applyConditionScenarios {
		t.Run(sc.name, func(t *testing.T) {
			for _, format := range []string{"json", "human"} {
				dir := workDir(t, map[string]string{"main.tf": sc.before})
				if sc.before != "" {
					mustRig(t, dir, "apply", "-auto-approve", "-no-color")
				}
				writeFile(t, dir, "main.tf", sc.main)
				args := []string{"apply", "-auto-approve", "-no-color"}
				if format == "json" {
					args = append(args, "-json")
				}
				r := rig(t, dir, args...)
				if r.code != 1 {
					t.Fatalf("%s apply: exit %d, want 1\n%s%s", format, r.code, r.stdout, r.stderr)
				}
				if format == "json" {
					if diff := cmp.Diff(sc.wantEvents, streamEvents(t, r.stdout)); diff != "" {
						t.Errorf("JSON stream (-want +got):\n%s", diff)
					}
				} else {
					out := r.stdout + r.stderr
					at := 0
					for _, want := range sc.wantHuman {
						i := strings.Index(out[at:], want)
						if i < 0 {
							t.Errorf("human output lacks %q (in order):\n%s", want, out)
							break
						}
						at += i + len(want)
					}
					if strings.Contains(out, "errored") {
						t.Errorf("an operation is reported as having failed:\n%s", out)
					}
				}
				if diff := cmp.Diff(sc.wantResources, stateResources(t, dir)); diff != "" {
					t.Errorf("state resources (-want +got):\n%s", diff)
				}
				golden(t, "conditions_at_apply_"+strings.ReplaceAll(sc.name, " ", "_"), stateCheckResults(t, dir))
			}
		})
	}
}

// TestConditionsFailingAtApplyLikeTerraform runs the same scenarios through
// Terraform: its JSON stream's operation messages and errors, the
// resources its state records and its check results are rig's.
func TestConditionsFailingAtApplyLikeTerraform(t *testing.T) {
	for _, sc := range applyConditionScenarios {
		t.Run(sc.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": sc.before})
			tf := terraformIn(t, dir)
			tf("init", "-no-color")
			if sc.before != "" {
				if r := tf("apply", "-auto-approve", "-no-color"); r.code != 0 {
					t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
				}
			}
			writeFile(t, dir, "main.tf", sc.main)
			r := tf("apply", "-auto-approve", "-no-color", "-json")
			if r.code != 1 {
				t.Fatalf("terraform apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if diff := cmp.Diff(sc.wantEvents, streamEvents(t, r.stdout)); diff != "" {
				t.Errorf("Terraform's JSON stream (-want +terraform):\n%s", diff)
			}
			if diff := cmp.Diff(sc.wantResources, stateResources(t, dir)); diff != "" {
				t.Errorf("Terraform's state resources (-want +terraform):\n%s", diff)
			}
			golden(t, "conditions_at_apply_"+strings.ReplaceAll(sc.name, " ", "_"), stateCheckResults(t, dir))
		})
	}
}
