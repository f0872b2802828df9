package planner_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// planSource plans a one-file configuration (main.tf) against an empty state.
func planSource(t *testing.T, src string, vars map[string]planner.InputValue) (*plan.Plan, diag.Diagnostics) {
	t.Helper()
	fx := loadFixture(t, &txtar.Archive{Files: []txtar.File{{Name: "main.tf", Data: []byte(src)}}})
	fx.opts.Variables = vars
	return makePlan(t, fx)
}

// wantDiag describes a diagnostic as a user sees it.
type wantDiag struct {
	Severity diag.Severity
	Summary  string
	// Pos is "file:line", "" for a diagnostic without a source range.
	Pos string
	// Detail must be contained in the detail.
	Detail string
}

func checkDiags(t *testing.T, ds diag.Diagnostics, want []wantDiag) {
	t.Helper()
	var got []wantDiag
	for i, d := range ds {
		g := wantDiag{Severity: d.Severity, Summary: d.Summary}
		if d.Subject != nil {
			g.Pos = d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line)
		}
		if i < len(want) && strings.Contains(d.Detail, want[i].Detail) {
			g.Detail = want[i].Detail
		} else {
			g.Detail = d.Detail
		}
		got = append(got, g)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestVariables(t *testing.T) {
	const decls = `
variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1

  validation {
    condition     = var.size < 10
    error_message = "The size must be below 10."
  }
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "opts" {
  type = object({
    enabled = bool
    level   = optional(number, 3)
  })
  default = { enabled = false }
}

resource "terraform_data" "x" {
  input = [var.name, var.size, var.tags, var.opts]
}
`
	str := func(s string) planner.InputValue {
		return planner.InputValue{Value: cty.StringVal(s), SourceType: "-var"}
	}
	tests := []struct {
		name  string
		vars  map[string]planner.InputValue
		want  []wantDiag
		check func(t *testing.T, p *plan.Plan)
	}{
		{
			name: "defaults and conversions",
			vars: map[string]planner.InputValue{
				"name": str("n"),
				// A -var value arrives as a string and is converted to the declared type.
				"size": str("7"),
				"tags": {Value: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b")}), SourceType: "a .tfvars file"},
			},
			check: func(t *testing.T, p *plan.Plan) {
				want := map[string]cty.Value{
					"name": cty.StringVal("n"),
					"size": cty.NumberIntVal(7),
					"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
					"opts": cty.ObjectVal(map[string]cty.Value{"enabled": cty.False, "level": cty.NumberIntVal(3)}),
				}
				for name, w := range want {
					if got := p.Variables[name]; !got.RawEquals(w) {
						t.Errorf("var.%s = %s, want %s", name, formatValue(got), formatValue(w))
					}
				}
			},
		},
		{
			name: "required variable missing",
			vars: map[string]planner.InputValue{},
			want: []wantDiag{{diag.Error, "No value for required variable", "main.tf:2",
				`The root module input variable "name" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`}},
		},
		{
			name: "validation fails",
			vars: map[string]planner.InputValue{"name": str("n"), "size": str("12")},
			// OpenTofu reports a root variable's failed validation at the variable
			// declaration, with the rule's position in the detail.
			want: []wantDiag{{diag.Error, "Invalid value for variable", "main.tf:6",
				"The size must be below 10.\n\nThis was checked by the validation rule at main.tf:10,3-13."}},
		},
		{
			name: "value of the wrong type",
			vars: map[string]planner.InputValue{"name": str("n"), "size": str("big")},
			want: []wantDiag{{diag.Error, "Invalid value for input variable", "main.tf:6",
				`Unsuitable value for var.size set using -var="size=...": a number is required.`}},
		},
		{
			name: "value of the wrong type from the environment",
			vars: map[string]planner.InputValue{"name": str("n"), "size": {Value: cty.StringVal("big"), SourceType: planner.SourceEnv}},
			want: []wantDiag{{diag.Error, "Invalid value for input variable", "main.tf:6",
				"Unsuitable value for var.size set using the TF_VAR_size environment variable: a number is required."}},
		},
		{
			name: "value of the wrong type from a file",
			vars: map[string]planner.InputValue{"name": str("n"), "size": {Value: cty.StringVal("big"), SourceType: "a .tfvars file", File: "terraform.tfvars"}},
			want: []wantDiag{{diag.Error, "Invalid value for input variable", "main.tf:6",
				"The given value is not suitable for var.size declared at main.tf:6,1-16: a number is required."}},
		},
		{
			// TF_VAR_ variables are often set for many configurations.
			name: "undeclared variable in the environment is ignored",
			vars: map[string]planner.InputValue{"name": str("n"), "nope": {Value: cty.StringVal("x"), SourceType: planner.SourceEnv}},
		},
		{
			name: "undeclared variables in files: two warnings, then a count",
			vars: map[string]planner.InputValue{"name": str("n"),
				"a": {Value: cty.StringVal("x"), SourceType: "a .tfvars file", File: "terraform.tfvars"},
				"b": {Value: cty.StringVal("x"), SourceType: "a .tfvars file", File: "terraform.tfvars"},
				"c": {Value: cty.StringVal("x"), SourceType: "-var-file", File: "ci.tfvars"},
				"d": {Value: cty.StringVal("x"), SourceType: "-var-file", File: "ci.tfvars"}},
			want: []wantDiag{
				{diag.Warning, "Value for undeclared variable", "", `The root module does not declare a variable named "a" but a value was found in file "terraform.tfvars".`},
				{diag.Warning, "Value for undeclared variable", "", `The root module does not declare a variable named "b" but a value was found in file "terraform.tfvars".`},
				{diag.Warning, "Values for undeclared variables", "", "In addition to the other similar warnings shown, 2 other variable(s) defined without being declared."},
			},
		},
		{
			name: "object missing a required attribute",
			vars: map[string]planner.InputValue{"name": str("n"), "opts": {Value: cty.EmptyObjectVal, SourceType: "-var"}},
			want: []wantDiag{{diag.Error, "Invalid value for input variable", "main.tf:21", `attribute "enabled" is required`}},
		},
		{
			name: "undeclared variable on the command line",
			vars: map[string]planner.InputValue{"name": str("n"), "nope": str("x")},
			want: []wantDiag{{diag.Error, "Value for undeclared variable", "",
				`A variable named "nope" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`}},
		},
		{
			name: "undeclared variable in a file is a warning",
			vars: map[string]planner.InputValue{"name": str("n"), "nope": {Value: cty.StringVal("x"), SourceType: "a .tfvars file", File: "terraform.tfvars"}},
			want: []wantDiag{{diag.Warning, "Value for undeclared variable", "",
				`The root module does not declare a variable named "nope" but a value was found in file "terraform.tfvars". If you meant to use this value, add a "variable" block to the configuration.

To silence these warnings, use TF_VAR_... environment variables to provide certain "global" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.`}},
			check: func(t *testing.T, p *plan.Plan) {
				if p.Errored || len(p.Changes) != 1 {
					t.Errorf("a warning must not stop planning: errored=%v, %d changes", p.Errored, len(p.Changes))
				}
			},
		},
	}
	tests = append(tests, struct {
		name  string
		vars  map[string]planner.InputValue
		want  []wantDiag
		check func(t *testing.T, p *plan.Plan)
	}{
		name: "null for a required variable",
		vars: map[string]planner.InputValue{"name": {Value: cty.NullVal(cty.String), SourceType: "-var"}},
		// Declared variables are nullable by default, but a variable
		// without a default still needs a value other than null.
		check: func(t *testing.T, p *plan.Plan) {
			if v := p.Variables["name"]; !v.IsNull() {
				t.Errorf("var.name = %s, want null", formatValue(v))
			}
		},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := planSource(t, decls, tt.vars)
			checkDiags(t, ds, tt.want)
			if got, want := p.Errored, ds.HasErrors(); got != want {
				t.Errorf("Errored = %v, want %v", got, want)
			}
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

// TestVariablesInDestroyMode: a destroy plan needs the required variables too
// (OpenTofu evaluates the configuration to plan a destroy).
func TestVariablesInDestroyMode(t *testing.T) {
	fx := loadFixture(t, &txtar.Archive{Files: []txtar.File{{Name: "main.tf", Data: []byte(`
variable "name" {}
resource "test_thing" "a" { key = var.name }
`)}}})
	fx.opts.Mode = plan.DestroyMode
	_, ds := makePlan(t, fx)
	checkDiags(t, ds, []wantDiag{{diag.Error, "No value for required variable", "main.tf:2", `"name" is not set`}})
}

// TestPlanTimestamp: the plan records the time planning began, in UTC.
func TestPlanTimestamp(t *testing.T) {
	fx := loadFixture(t, &txtar.Archive{Files: []txtar.File{{Name: "main.tf", Data: []byte(`
resource "terraform_data" "t" { input = plantimestamp() }
`)}}})
	fx.opts.Now = func() time.Time { return time.Date(2030, 1, 2, 4, 5, 6, 0, time.FixedZone("X", 3600)) }
	p, ds := makePlan(t, fx)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if want := time.Date(2030, 1, 2, 3, 5, 6, 0, time.UTC); !p.Timestamp.Equal(want) || p.Timestamp.Location() != time.UTC {
		t.Errorf("Timestamp = %v, want %v", p.Timestamp, want)
	}
	if got := p.Changes[0].After.GetAttr("input"); !got.RawEquals(cty.StringVal("2030-01-02T03:05:06Z")) {
		t.Errorf("plantimestamp() = %s", formatValue(got))
	}
}

// TestNonNullableVariables: nullable = false replaces a null value with the
// default, and without a default refuses it.
func TestNonNullableVariables(t *testing.T) {
	const src = `
variable "with_default" {
  type     = string
  default  = "d"
  nullable = false
}

variable "without_default" {
  type     = string
  nullable = false
}

resource "terraform_data" "x" {
  input = [var.with_default, var.without_default]
}
`
	null := planner.InputValue{Value: cty.NullVal(cty.String), SourceType: "-var"}
	p, ds := planSource(t, src, map[string]planner.InputValue{"with_default": null, "without_default": null})
	checkDiags(t, ds, []wantDiag{{diag.Error, "Required variable not set", "main.tf:8", "null"}})
	if got := p.Variables["with_default"]; !got.RawEquals(cty.StringVal("d")) {
		t.Errorf("var.with_default = %s, want the default", formatValue(got))
	}
}
