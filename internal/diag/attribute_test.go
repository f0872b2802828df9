package diag

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestInBody places provider diagnostics about attribute paths where the
// configuration sets them (or at the body an unset one belongs in), and
// leaves the others as they are.
func TestInBody(t *testing.T) {
	const src = `name = "web"
tags = {
  env = "prod"
}
network {
  subnet = "a"
}
rule {
  port = 80
}
rule {
  port = 443
}
setting "x" {
  value = 1
}
`
	f, hds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	tests := []struct {
		name     string
		path     cty.Path
		wantLine int
	}{
		{"attribute", cty.GetAttrPath("name"), 1},
		{"inside a map attribute", cty.GetAttrPath("tags").Index(cty.StringVal("env")), 2},
		{"attribute of a single block", cty.GetAttrPath("network").GetAttr("subnet"), 6},
		{"second list block", cty.GetAttrPath("rule").Index(cty.NumberIntVal(1)).GetAttr("port"), 12},
		{"list block out of range", cty.GetAttrPath("rule").Index(cty.NumberIntVal(5)), 8},
		{"map block by label", cty.GetAttrPath("setting").Index(cty.StringVal("x")).GetAttr("value"), 15},
		// The start of the body, as OpenTofu places what is not set.
		{"unset attribute", cty.GetAttrPath("missing"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diagnostic{Severity: Warning, Summary: "S", Detail: "Detail.\n\n" + AttributeNote(tt.path), AttributePath: tt.path}
			got := Diagnostics{d}.InBody(f.Body)[0]
			if got.Subject == nil || got.Subject.Start.Line != tt.wantLine || got.Subject.Filename != "main.tf" {
				t.Fatalf("subject %v, want main.tf line %d", got.Subject, tt.wantLine)
			}
			if got.Detail != "Detail." {
				t.Errorf("detail %q, want the attribute note removed", got.Detail)
			}
		})
	}
	// A diagnostic already placed is left alone; one about no attribute is
	// at the start of the body, where OpenTofu places it.
	rng := hcl.Range{Filename: "other.tf", Start: hcl.Pos{Line: 9}}
	ds := Diagnostics{{Summary: "placed", Subject: &rng, AttributePath: cty.GetAttrPath("name")}, {Summary: "no path", Detail: "Whole."}}.InBody(f.Body)
	if ds[0].Subject.Filename != "other.tf" {
		t.Errorf("InBody moved a placed diagnostic: %+v", ds[0])
	}
	if s := ds[1].Subject; s == nil || s.Filename != "main.tf" || s.Start != f.Body.(*hclsyntax.Body).SrcRange.Start || ds[1].Detail != "Whole." {
		t.Errorf("diagnostic with no path: subject %v detail %q, want the start of the body", s, ds[1].Detail)
	}
}
