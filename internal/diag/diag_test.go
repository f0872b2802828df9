package diag

import (
	"errors"
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestAppendAndHasErrors(t *testing.T) {
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: 5}}
	tests := []struct {
		name       string
		in         []Appendable
		wantLen    int
		wantErrors bool
	}{
		{"nothing", nil, 0, false},
		{"warning only", []Appendable{WarningAt(rng, "Deprecated", "x")}, 1, false},
		{"hcl error", []Appendable{FromHCL(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Bad", Subject: &rng}})}, 1, true},
		{"plain error", []Appendable{FromError(errors.New("disk full"))}, 1, true},
		{"wrapped diagnostic", []Appendable{FromError(fmt.Errorf("loading: %w", At(rng, "Bad", "x")))}, 1, true},
		{"nil skipped", []Appendable{nil, Diagnostics(nil)}, 0, false},
		{"several", []Appendable{WarningAt(rng, "Deprecated", "x"), Diagnostics{At(rng, "Bad", "x"), At(rng, "Worse", "y")}}, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ds Diagnostics
			ds = ds.Append(tt.in...)
			if len(ds) != tt.wantLen {
				t.Fatalf("len = %d, want %d", len(ds), tt.wantLen)
			}
			if ds.HasErrors() != tt.wantErrors {
				t.Fatalf("HasErrors = %v, want %v", ds.HasErrors(), tt.wantErrors)
			}
		})
	}
}

func TestErrorNamesFileAndLine(t *testing.T) {
	d := At(hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 7, Column: 2}}, "Cycle", "a → b")
	if got, want := d.Error(), "main.tf:7,2: Cycle; a → b"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	var ds Diagnostics
	ds = ds.Append(d)
	var back Diagnostic
	if !errors.As(ds.Err(), &back) || back.Summary != "Cycle" {
		t.Fatalf("Err() does not unwrap to the diagnostic: %v", ds.Err())
	}
}

func TestFormatPath(t *testing.T) {
	tests := []struct {
		name           string
		path           cty.Path
		want, relative string
	}{
		{"empty", nil, "", ""},
		{"attribute", cty.GetAttrPath("a"), "a", ".a"},
		{"nested attribute", cty.GetAttrPath("a").GetAttr("b"), "a.b", ".a.b"},
		{"list element", cty.GetAttrPath("rule").IndexInt(2).GetAttr("port"), "rule[2].port", ".rule[2].port"},
		{"map key quoted", cty.GetAttrPath("tags").IndexString("k\"1"), `tags["k\"1"]`, `.tags["k\"1"]`},
		{"index first", cty.Path{cty.IndexStep{Key: cty.NumberIntVal(0)}}.GetAttr("a"), "[0].a", "[0].a"},
		{"unknown key", cty.Path{cty.IndexStep{Key: cty.UnknownVal(cty.String)}}, "[?]", "[?]"},
		{"null key", cty.GetAttrPath("m").Index(cty.NullVal(cty.String)), "m[?]", ".m[?]"},
		{"set element", cty.GetAttrPath("ingress").Index(cty.DynamicVal).GetAttr("port"), "ingress[*].port", ".ingress[*].port"},
		{"set element by value", cty.GetAttrPath("ingress").Index(cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(1)})), "ingress[*]", ".ingress[*]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatPath(tt.path); got != tt.want {
				t.Errorf("FormatPath = %q, want %q", got, tt.want)
			}
			if got := FormatRelativePath(tt.path); got != tt.relative {
				t.Errorf("FormatRelativePath = %q, want %q", got, tt.relative)
			}
		})
	}
}

type testAddr string

func (a testAddr) String() string { return string(a) }

func TestWithAddressNamesOnlyTheUnnamed(t *testing.T) {
	ds := Diagnostics{Errorf("Bad", "x"), {Severity: Warning, Summary: "Other", Address: "terraform_data.b"}}
	ds = ds.WithAddress(testAddr("terraform_data.a[0]"))
	if got := []string{ds[0].Address, ds[1].Address}; got[0] != "terraform_data.a[0]" || got[1] != "terraform_data.b" {
		t.Errorf("addresses = %q, want [terraform_data.a[0] terraform_data.b]", got)
	}
	if got := Diagnostics(nil).WithAddress(testAddr("x")); got != nil {
		t.Errorf("WithAddress of no diagnostics = %v, want nil", got)
	}
}
