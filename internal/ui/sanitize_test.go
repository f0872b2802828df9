package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text", "input = \"x\"\n\tok ✓", "input = \"x\"\n\tok ✓"},
		{"escape sequence", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"carriage return and bell", "a\rb\x07", `a\x0db\x07`},
		{"delete", "a\x7f", `a\x7f`},
		{"C1 control", "a\u009bb", `a\u009bb`},
		{"bidirectional override", "a\u202eb", `a\u202eb`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := printable(tt.in); got != tt.want {
				t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLimitPerFile(t *testing.T) {
	at := func(file string, sev diag.Severity, i int) diag.Diagnostic {
		return diag.Diagnostic{Severity: sev, Summary: fmt.Sprint(i), Subject: &hcl.Range{Filename: file}}
	}
	var ds diag.Diagnostics
	for i := range 25 {
		ds = append(ds, at("a.tf", diag.Error, i))
	}
	for i := range 22 {
		ds = append(ds, at("b.tf", diag.Warning, i))
	}
	ds = append(ds, at("b.tf", diag.Error, 22), diag.Diagnostic{Severity: diag.Error, Summary: "no file"}, at("c.tf", diag.Error, 0))
	got := limitPerFile(ds)
	var summaries []string
	for _, d := range got {
		summaries = append(summaries, d.Summary)
	}
	if len(got) != 20+20+1+1+2 {
		t.Fatalf("%d diagnostics: %q", len(got), summaries)
	}
	tail := strings.Join(summaries[len(summaries)-2:], "|")
	if tail != "5 more errors in a.tf|1 more error and 2 warnings in b.tf" {
		t.Errorf("closing diagnostics = %q", tail)
	}
	if got[len(got)-1].Severity != diag.Error {
		t.Errorf("b.tf's closing diagnostic is not an error")
	}
}

func TestPrintableDiagnosticAddress(t *testing.T) {
	key := addrs.StringKey("a\x1b[2Jb")
	addr := addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "x"}.Instance(key)}
	d := printableDiagnostic(diag.Diagnostic{Severity: diag.Error, Summary: "Bad", Address: addr})
	if got := d.AddressText(); strings.ContainsRune(got, 0x1b) || !strings.HasPrefix(got, "terraform_data.x[") {
		t.Errorf("address shown as %q, want terraform_data.x[…] without the escape character", got)
	}
	plain := addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "y"}.Instance(addrs.NoKey)}
	if d := printableDiagnostic(diag.Diagnostic{Address: plain}); d.Address != diag.Address(plain) {
		t.Errorf("a printable address became %#v, want the address itself", d.Address)
	}
}
