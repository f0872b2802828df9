package eval

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/lang"
)

// noResources answers every resource reference with an unknown value.
type noResources struct{}

func (noResources) ResourceValue(addrs.AbsResource) cty.Value { return cty.DynamicVal }

func loadTree(t *testing.T, files map[string]string) *config.Module {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
	}
	cfg, ds := config.LoadTreeFS(fsys, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return cfg
}

func evalIn(t *testing.T, e *Evaluator, mi addrs.ModuleInstance, src string) cty.Value {
	t.Helper()
	expr, hds := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	v, ds := e.Scope(mi, lang.InstanceData{}).EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		t.Fatalf("%s: %v", src, ds.Err())
	}
	return v
}

func TestModuleEvaluation(t *testing.T) {
	cfg := loadTree(t, map[string]string{
		"main.tf": `
variable "names" {
  default = ["a", "b"]
}
module "each" {
  source   = "./m"
  for_each = toset(var.names)
  name     = each.key
  opts     = { size = 2 }
}
module "counted" {
  source = "./m"
  count  = 2
  name   = "c${count.index}"
  opts   = { size = count.index, color = "red" }
}
`,
		"m/main.tf": `
variable "name" {
  type = string
}
variable "opts" {
  type = object({
    size  = number
    color = optional(string, "blue")
  })
}
locals {
  label = "${var.name}-${var.opts.color}-${var.opts.size}"
}
output "label" {
  value = local.label
}
output "name" {
  value = var.name
}
`,
	})
	e := &Evaluator{Config: cfg, Variables: map[string]cty.Value{"names": cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}, Resources: noResources{}}

	var got []string
	for _, mi := range e.ModuleInstances(addrs.RootModuleStatic.Child("each")) {
		got = append(got, mi.String())
	}
	if want := []string{`module.each["a"]`, `module.each["b"]`}; !slices.Equal(got, want) {
		t.Errorf("instances of module.each: %v, want %v", got, want)
	}
	if !e.ModuleInstanceExists(`module.counted[1]`) || e.ModuleInstanceExists(`module.counted[2]`) || e.ModuleInstanceExists(`module.nope`) {
		t.Error("ModuleInstanceExists disagrees with the expansion")
	}

	tests := []struct {
		mi   addrs.ModuleInstance
		expr string
		want cty.Value
	}{
		{`module.each["b"]`, `local.label`, cty.StringVal("b-blue-2")},
		{`module.counted[1]`, `var.opts`, cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(1), "color": cty.StringVal("red")})},
		{addrs.RootModule, `module.each["a"].label`, cty.StringVal("a-blue-2")},
		{addrs.RootModule, `module.counted[*].name`, cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")})},
		{addrs.RootModule, `module.counted[0]`, cty.ObjectVal(map[string]cty.Value{"label": cty.StringVal("c0-red-0"), "name": cty.StringVal("c0")})},
		{addrs.RootModule, `keys(module.each)`, cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
	}
	for _, tt := range tests {
		if got := evalIn(t, e, tt.mi, tt.expr); !got.RawEquals(tt.want) {
			t.Errorf("%s in %q = %#v, want %#v", tt.expr, tt.mi, got, tt.want)
		}
	}
}

func TestPrepareVariable(t *testing.T) {
	cfg := loadTree(t, map[string]string{"child.tf": `
variable "required" {
  type = number
}
variable "not_null" {
  type     = string
  default  = "dflt"
  nullable = false
}
variable "nullable_required" {
  nullable = false
}
`})
	rng := hcl.Range{Filename: "main.tf"}
	tests := []struct {
		name    string
		given   cty.Value
		want    cty.Value
		summary string
		subject string // the file the diagnostic is at, when there is one
	}{
		{"required", cty.StringVal("12"), cty.NumberIntVal(12), "", ""},
		{"required", cty.NilVal, cty.UnknownVal(cty.Number), "Missing required argument", ""},
		{"required", cty.StringVal("twelve"), cty.UnknownVal(cty.Number), "Invalid value for input variable", "child.tf"},
		{"not_null", cty.NullVal(cty.String), cty.StringVal("dflt"), "", ""},
		{"not_null", cty.NilVal, cty.StringVal("dflt"), "", ""},
		{"nullable_required", cty.NullVal(cty.String), cty.NullVal(cty.String), "Required variable not set", "main.tf"},
	}
	for _, tt := range tests {
		got, ds := PrepareVariable(cfg.Variables[tt.name], tt.given, rng, "module.m.var."+tt.name)
		summary, subject := "", ""
		if ds.HasErrors() {
			summary = ds[0].Summary
			if ds[0].Subject != nil {
				subject = ds[0].Subject.Filename
			}
		}
		if summary != tt.summary || (summary == "" && !got.RawEquals(tt.want)) {
			t.Errorf("%s given %#v: %#v, %q; want %#v, %q", tt.name, tt.given, got, summary, tt.want, tt.summary)
		}
		if tt.subject != "" && subject != tt.subject {
			t.Errorf("%s given %#v: reported in %q, want %q", tt.name, tt.given, subject, tt.subject)
		}
	}
}
