package eval_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/ui"
)

// fuzzSecret is the value of the sensitive variables of FuzzMarkedConditions,
// and fuzzEphemeral that of its ephemeral one, which no diagnostic may
// show.
const (
	fuzzSecret    = "hunter2-Qx7Zk"
	fuzzEphemeral = "EphTok-9Rw4"
)

const fuzzMarksConfig = `
variable "secret" {
  type      = string
  sensitive = true
}
variable "list" {
  type      = list(string)
  sensitive = true
}
variable "map" {
  type      = map(string)
  sensitive = true
}
variable "eph" {
  type      = string
  ephemeral = true
}
variable "plain" {
  type = string
}
`

type fuzzNoResources struct{}

func (fuzzNoResources) ResourceValue(addrs.AbsResource) cty.Value { return cty.DynamicVal }

// FuzzMarkedConditions evaluates conditions and error messages over
// sensitive and ephemeral values as each kind of rule does (a variable's
// validation, a pre- or postcondition, a check block's assertion): none
// panics, and no diagnostic, rendered as a user sees it, shows a
// sensitive value unless the expressions ask for it (nonsensitive) or
// write it themselves, nor an ephemeral value.
func FuzzMarkedConditions(f *testing.F) {
	seeds := [][2]string{
		{`length(var.secret) >= 12`, `"Too short."`},
		{`var.secret == "x"`, `"Not ${var.secret}."`},
		{`tonumber(var.secret) > 1`, `"x"`},
		{`contains(var.list, "a")`, `join(",", var.list)`},
		{`can(regex("^h", var.secret))`, `format("%s!", var.secret)`},
		{`var.secret[0] == "h"`, `var.map["k"]`},
		{`{ for k, v in var.map : k => v }["k"] == var.secret`, `jsonencode(var.map)`},
		{`var.eph != var.secret`, `"${var.eph} ${var.plain}"`},
		{`var.eph == "x"`, `"Got ${var.eph}."`},
		{`length(var.eph) > 100`, `"${upper(var.eph)} ${var.secret}"`},
		{`var.list == ["a"]`, `upper(var.secret)`},
		{`startswith(var.secret, "zz") || var.plain == "q"`, `var.secret`},
		{`var.secret`, `null`},
		{`sensitive(true) && issensitive(var.secret)`, `"${nonsensitive(var.plain)}"`},
		{`tobool(var.map.k)`, `tostring(var.list)`},
		{`var.secret == "x"`, `"Got ${nonsensitive(var.secret)}."`},
		{`alltrue([for s in var.list : s != var.secret])`, `"%{for s in var.list}${s}%{endfor}"`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	cfg := fuzzMarksTree(f)
	secret := cty.StringVal(fuzzSecret).Mark(marks.Sensitive)
	e, ds := eval.New(context.Background(), eval.Options{Config: cfg, Resources: fuzzNoResources{}, Variables: map[string]cty.Value{
		"secret": secret,
		"list":   cty.ListVal([]cty.Value{cty.StringVal(fuzzSecret), cty.StringVal("a")}).Mark(marks.Sensitive),
		"map":    cty.MapVal(map[string]cty.Value{"k": cty.StringVal(fuzzSecret)}).Mark(marks.Sensitive),
		"eph":    marks.MarkEphemeral(cty.StringVal(fuzzEphemeral)),
		"plain":  cty.StringVal("plain"),
	}})
	if ds.HasErrors() {
		f.Fatal(ds.Err())
	}
	scope := e.Scope(addrs.RootModule, lang.InstanceData{})
	f.Fuzz(func(t *testing.T, condition, message string) {
		cond, pds := hclsyntax.ParseExpression([]byte(condition), "condition.tf", hcl.InitialPos)
		msg, mds := hclsyntax.ParseExpression([]byte(message), "message.tf", hcl.InitialPos)
		if pds.HasErrors() || mds.HasErrors() {
			return
		}
		rule := &config.CheckRule{Condition: cond, ErrorMessage: msg}
		var all diag.Diagnostics
		all = all.Append(eval.CheckRule(scope, rule, "Invalid value for variable", "", eval.RuleAt{Type: checks.Validation}))
		all = all.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", eval.RuleAt{Type: checks.Precondition}))
		all = all.Append(eval.CheckAssert(scope, rule, eval.RuleAt{Type: checks.Assertion}))
		var out strings.Builder
		sources := map[string][]byte{"condition.tf": []byte(condition), "message.tf": []byte(message)}
		if err := ui.RenderDiagnosticsPlain(&out, all, sources, ui.RenderOptions{Width: 1 << 20}); err != nil {
			t.Fatal(err)
		}
		asked := strings.Contains(condition+message, "nonsensitive") || strings.Contains(condition+message, "hunter") ||
			strings.Contains(condition+message, "Qx7Zk")
		if !asked && strings.Contains(out.String(), fuzzSecret) {
			t.Errorf("condition %q, message %q: a diagnostic shows the sensitive value:\n%s", condition, message, out.String())
		}
		if !strings.Contains(condition+message, "EphTok") && !strings.Contains(condition+message, "9Rw4") && strings.Contains(out.String(), fuzzEphemeral) {
			t.Errorf("condition %q, message %q: a diagnostic shows the ephemeral value:\n%s", condition, message, out.String())
		}
	})
}

func fuzzMarksTree(f *testing.F) *config.Module {
	f.Helper()
	cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": &fstest.MapFile{Data: []byte(fuzzMarksConfig), Mode: 0o644}}, config.TreeOptions{})
	if ds.HasErrors() {
		f.Fatal(ds.Err())
	}
	return cfg
}
