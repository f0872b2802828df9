package testrun

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/planner"
)

// runVariables are the values of a run's variables: those its plan gets
// (the module's declared variables) and those its assertions see (every
// variable the test file, the run and the command line set).
type runVariables struct {
	// Module are the values of the configuration's declared variables
	// that are set, for the plan.
	Module map[string]planner.InputValue
	// Test are all the values set, for the assertions, provider blocks
	// and the variables of later expressions.
	Test map[string]cty.Value
}

// sourceTestFile says where a value came from in messages.
const sourceTestFile = "the test file"

// testContext returns the evaluation context of a test file's
// expressions: run (the outputs of the runs done, by name), var (vars) and
// the functions of the language.
func testContext(runs map[string]cty.Value, vars map[string]cty.Value) *hcl.EvalContext {
	scope := &lang.Scope{}
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"run": cty.ObjectVal(runs), "var": cty.ObjectVal(vars)},
		Functions: scope.Functions(),
	}
}

// variablesFor evaluates the variables of run: the run's own, else the
// file's, else the values given from outside (globals). Expressions may
// refer to earlier runs' outputs (runs) and to variables: the file's refer
// to the globals and the module's defaults, the run's to those and the
// file's.
func variablesFor(cfg *config.Module, file *config.TestFile, run *config.TestRun, globals map[string]planner.InputValue, runs map[string]cty.Value) (runVariables, diag.Diagnostics) {
	var ds diag.Diagnostics
	base := map[string]cty.Value{}
	for name, v := range cfg.Variables {
		if v.Default != cty.NilVal {
			base[name] = v.Default
		}
	}
	for name, decl := range file.VariableDecls {
		if decl.Default != cty.NilVal {
			base[name] = decl.Default
		}
	}
	for name, iv := range globals {
		val := iv.Value
		if decl, ok := file.VariableDecls[name]; ok && decl.Type != cty.DynamicPseudoType {
			if conv, err := convert.Convert(val, decl.Type); err == nil {
				val = conv
			}
		}
		base[name] = val
	}
	fileVals := map[string]cty.Value{}
	fileCtx := testContext(runs, base)
	for _, name := range slices.Sorted(maps.Keys(file.Variables)) {
		v, hds := file.Variables[name].Value(fileCtx)
		ds = ds.Append(diag.FromHCL(hds))
		fileVals[name] = v
	}
	all := maps.Clone(base)
	maps.Copy(all, fileVals)
	runVals := map[string]cty.Value{}
	runCtx := testContext(runs, all)
	for _, name := range slices.Sorted(maps.Keys(run.Variables)) {
		v, hds := run.Variables[name].Value(runCtx)
		ds = ds.Append(diag.FromHCL(hds))
		runVals[name] = v
	}
	maps.Copy(all, runVals)

	out := runVariables{Module: map[string]planner.InputValue{}, Test: all}
	for name := range cfg.Variables {
		switch {
		case hasKey(runVals, name):
			out.Module[name] = planner.InputValue{Value: runVals[name], SourceType: sourceTestFile}
		case hasKey(fileVals, name):
			out.Module[name] = planner.InputValue{Value: fileVals[name], SourceType: sourceTestFile}
		case hasKey(globals, name):
			out.Module[name] = globals[name]
		}
	}
	return out, ds
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
