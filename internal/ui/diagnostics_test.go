package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/golden"
)

const mainTF = `variable "env" {}

resource "terraform_data" "a" {
  input = var.nope
}
`

func testDiagnostics() diag.Diagnostics {
	at := strings.Index(mainTF, "var.nope")
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 4, Column: 11, Byte: at}, End: hcl.Pos{Line: 4, Column: 19, Byte: at + len("var.nope")}}
	return diag.Diagnostics{
		diag.At(rng, "Reference to undeclared input variable",
			`An input variable with the name "nope" has not been declared. This variable can be declared with a variable "nope" {} block.`),
		diag.WarningAt(hcl.Range{Filename: "other.tf", Start: hcl.Pos{Line: 2, Column: 1, Byte: 10}, End: hcl.Pos{Line: 2, Column: 5, Byte: 14}},
			"Deprecated attribute", "The attribute \"x\" is deprecated.\n\n  Use \"y\" instead."),
		{Severity: diag.Error, Summary: "Failed to create terraform_data.b", Detail: "provider said no", Address: addrs.ObjectAddr{Instance: addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "b"}}}}},
	}
}

func TestRenderDiagnostics(t *testing.T) {
	sources := map[string][]byte{"main.tf": []byte(mainTF)}
	var buf bytes.Buffer
	if err := RenderDiagnostics(&buf, testDiagnostics(), sources, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- plain\n")
	if err := RenderDiagnosticsPlain(&buf, testDiagnostics(), sources, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- color\n")
	if err := RenderDiagnostics(&buf, testDiagnostics()[:1], sources, RenderOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/diagnostics.golden", buf.Bytes())
}

func TestMarshalValidateJSON(t *testing.T) {
	got, err := MarshalValidateJSON(testDiagnostics(), map[string][]byte{"main.tf": []byte(mainTF)})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/validate.json", indentJSON(t, got))
}
