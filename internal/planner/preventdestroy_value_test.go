package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestPreventDestroyValueCheckedOnEveryPlan: a prevent_destroy expression
// whose value can never decide a deletion (sensitive, not a bool) is an
// error whatever the plan does with the object, a create too, as OpenTofu
// 1.12 reports it; one not known yet, or null, matters only when the object
// would be destroyed.
func TestPreventDestroyValueCheckedOnEveryPlan(t *testing.T) {
	tests := []struct {
		name, value string
		wantDetail  string // "" for no error
	}{
		{"sensitive", `var.secret`, "test_thing.a has a sensitive value for its prevent_destroy argument"},
		{"not a bool", `var.word`, "test_thing.a has an invalid value for its prevent_destroy argument: a bool is required."},
		{"unknown", `test_thing.src.id == ""`, ""},
		{"null", `var.none`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := loadFixture(t, txtar.Parse([]byte(fmt.Sprintf(`
-- main.tf --
variable "secret" {
  type      = bool
  default   = true
  sensitive = true
}
variable "word" {
  type    = string
  default = "maybe"
}
variable "none" {
  type    = bool
  default = null
}
resource "test_thing" "src" {
  key = "src"
}
resource "test_thing" "a" {
  key = "a"
  lifecycle {
    prevent_destroy = %s
  }
}
`, tt.value))))
			p, ds := makePlan(t, fx)
			if tt.wantDetail == "" {
				if ds.HasErrors() {
					t.Fatalf("plan failed: %v", ds.Err())
				}
				return
			}
			var found bool
			for _, d := range ds {
				if d.Summary == "Invalid value for prevent_destroy" && strings.Contains(d.Detail, tt.wantDetail) {
					found = true
					if d.Subject == nil || d.Subject.Filename != "main.tf" || d.Subject.Start.Line != 20 {
						t.Errorf("diagnostic at %v, want main.tf:20", d.Subject)
					}
				}
			}
			if !found || p != nil && !p.Errored {
				t.Errorf("want an errored plan with %q, got %v", tt.wantDetail, ds)
			}
		})
	}
}
