package lang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// ConsoleFile is the file name console expressions are parsed under, as
// their diagnostics name it.
const ConsoleFile = "<console-input>"

// ConsoleStatement gathers the lines of one console expression: it goes
// on while brackets, braces or parentheses are open, or while a line ends
// with a backslash (not an escaped one).
type ConsoleStatement struct {
	lines []string
	open  int
}

// Add adds a line; it returns the expression once complete ("" for blank
// input), and false while more lines are expected.
func (s *ConsoleStatement) Add(line string) (string, bool) {
	more := strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`)
	line = strings.TrimSuffix(line, `\`)
	if line != "" {
		s.lines = append(s.lines, line)
		toks, _ := hclsyntax.LexConfig([]byte(line), ConsoleFile, hcl.InitialPos)
		for _, t := range toks {
			switch t.Type {
			case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen:
				s.open++
			case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen:
				s.open--
			}
		}
	}
	if more || s.open > 0 {
		return "", false
	}
	stmt := strings.Join(s.lines, "\n")
	s.lines, s.open = nil, 0
	return stmt, true
}

// EvalConsole evaluates one console expression of the root module cfg in
// scope. A call of type() evaluates its argument, and isType says the
// value's type is what is shown, as only the console can.
func EvalConsole(cfg *config.Module, scope *Scope, line string) (v cty.Value, isType bool, ds diag.Diagnostics) {
	expr, hds := hclsyntax.ParseExpression([]byte(line), ConsoleFile, hcl.InitialPos)
	if hds.HasErrors() {
		return cty.NilVal, false, diag.FromHCL(hds)
	}
	refs, more := ReferencesInExpr(expr)
	ds = ds.Append(more)
	for _, ref := range refs {
		if ref.Kind == ResourceRef && !slices.ContainsFunc(cfg.Resources(), func(r *config.Resource) bool { return r.Addr == ref.Resource }) {
			kind := "managed resource"
			if ref.Resource.Mode == addrs.Data {
				kind = "data resource"
			}
			ds = ds.Append(diag.At(ref.Range, "Reference to undeclared resource",
				fmt.Sprintf("A %s %q %q has not been declared in %s.", kind, ref.Resource.Type, ref.Resource.Name, moduleDisplay(cfg))))
		}
	}
	if ds.HasErrors() {
		return cty.NilVal, false, ds
	}
	if call, ok := expr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "type" && len(call.Args) == 1 {
		expr, isType = call.Args[0], true
	}
	v, more = scope.EvalExpr(expr, cty.DynamicPseudoType)
	return v, isType, ds.Append(more)
}
