package testrun

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
)

// assertScope is what a run's assertions are evaluated against: the root
// module of the configuration under test with the values of the plan (a
// plan run) or of the new state (an apply run), plus output.NAME (the
// root outputs), run.NAME (earlier runs' outputs) and every variable the
// test sets, declared by the module or not.
type assertScope struct {
	Plan  *plan.Plan
	State *state.State // nil for a plan run
	Runs  map[string]cty.Value
	Vars  map[string]cty.Value
}

// assertions evaluates the run's assert blocks and returns the status they
// give (Pass, Fail or Error) and their diagnostics.
func (r *runner) assertions(ctx context.Context, setup *runSetup, as assertScope) (Status, diag.Diagnostics) {
	if len(r.run.Asserts) == 0 {
		return Pass, nil
	}
	opts := r.fr.s.opts
	var values eval.ResourceValues
	outputs := map[string]cty.Value{}
	for name, out := range setup.cfg.Outputs {
		v := cty.NullVal(cty.DynamicPseudoType)
		if as.State == nil {
			v = cty.DynamicVal
		}
		if out.Sensitive {
			v = v.Mark(lang.Sensitive)
		}
		outputs[name] = v
	}
	if as.State != nil {
		values = planner.StateValues(ctx, setup.cfg, as.State, setup.set)
		for name, ov := range as.State.Outputs {
			outputs[name] = markOutput(ov.Value, ov.Sensitive)
		}
	} else {
		values = planner.PlannedValues(ctx, setup.cfg, as.Plan, setup.set)
		for name, oc := range as.Plan.Outputs {
			if oc.After != cty.NilVal {
				outputs[name] = markOutput(oc.After, oc.Sensitive)
			}
		}
	}
	ev, ds := eval.New(ctx, eval.Options{Config: setup.cfg, Variables: as.Plan.Variables, Resources: values,
		Env: opts.Env, Timestamp: as.Plan.Timestamp, Providers: setup.set})
	if ds.HasErrors() {
		return Error, ds
	}
	scope := ev.Scope(addrs.RootModule, lang.InstanceData{})
	scope.PureOnly = as.State == nil
	scope.Data = &assertData{base: scope.Data, cfg: setup.cfg, vars: as.Vars, outputs: outputs, runs: as.Runs}
	status := Pass
	for _, rule := range r.run.Asserts {
		st, more := checkAssertion(scope, rule)
		status = status.Merge(st)
		ds = ds.Append(more)
	}
	return status, ds
}

// checkAssertion evaluates one assert block.
func checkAssertion(scope *lang.Scope, rule *config.CheckRule) (Status, diag.Diagnostics) {
	val, ds := scope.EvalExpr(rule.Condition, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return Error, ds
	}
	val, _ = val.UnmarkDeep()
	rng := rule.Condition.Range()
	invalid := func(summary, detail string) (Status, diag.Diagnostics) {
		d := diag.At(rng, summary, detail)
		d.Values = scope.ExpressionValues(rule.Condition)
		return Error, ds.Append(d)
	}
	switch {
	case val.IsNull():
		return invalid("Invalid condition run", "Condition expression must return either true or false, not null.")
	case !val.IsKnown():
		return invalid("Unknown condition run", "Condition expression could not be evaluated at this time.")
	}
	b, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return invalid("Invalid condition run", fmt.Sprintf("Invalid condition run value: %s.", err))
	}
	if b.True() {
		return Pass, ds
	}
	msg, more := errorMessage(scope, rule)
	ds = ds.Append(more)
	if more.HasErrors() {
		return Error, ds
	}
	d := diag.At(rng, "Test assertion failed", msg)
	d.Values = scope.ExpressionValues(rule.Condition)
	d.Difference = scope.EqualityDifference(rule.Condition)
	return Fail, ds.Append(d)
}

// errorMessage evaluates an assertion's error_message; a sensitive one is
// not shown.
func errorMessage(scope *lang.Scope, rule *config.CheckRule) (string, diag.Diagnostics) {
	if rule.ErrorMessage == nil {
		return "", nil
	}
	m, ds := scope.EvalExpr(rule.ErrorMessage, cty.String)
	switch {
	case ds.HasErrors():
		return "", ds
	case !m.IsKnown() || m.IsNull():
		return "", ds
	case m.HasMark(lang.Sensitive):
		return "The error message included a sensitive value, so it will not be displayed.", ds
	}
	m, _ = m.UnmarkDeep()
	return m.AsString(), ds
}

func markOutput(v cty.Value, sensitive bool) cty.Value {
	if sensitive {
		return v.Mark(lang.Sensitive)
	}
	return v
}

// assertData answers the references of assertions: output.NAME, run.NAME
// and the test's variables itself, everything else from the module's
// evaluator. (output and run are read by the language as resource types.)
type assertData struct {
	base    lang.Data
	cfg     *config.Module
	vars    map[string]cty.Value
	outputs map[string]cty.Value
	runs    map[string]cty.Value
}

func (d *assertData) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if _, declared := d.cfg.Variables[name]; !declared {
		if v, ok := d.vars[name]; ok {
			return v, nil
		}
	}
	return d.base.InputVariable(name, rng)
}

func (d *assertData) LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return d.base.LocalValue(name, rng)
}

func (d *assertData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if addr.Mode == addrs.Managed {
		switch addr.Type {
		case "output":
			if v, ok := d.outputs[addr.Name]; ok {
				return v, nil
			}
			return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared output value",
				fmt.Sprintf("An output value with the name %q has not been declared.", addr.Name))}
		case "run":
			if v, ok := d.runs[addr.Name]; ok {
				return v, nil
			}
			return cty.DynamicVal, diag.Diagnostics{unknownRun(addr.Name, rng)}
		}
	}
	if d.cfg.ResourceByAddr(addr) == nil {
		kind := "managed resource"
		if addr.Mode == addrs.Data {
			kind = "data resource"
		}
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared resource",
			fmt.Sprintf("A %s %q %q has not been declared in the root module.", kind, addr.Type, addr.Name))}
	}
	return d.base.Resource(addr, rng)
}

func (d *assertData) ModuleCall(name string, outputs []string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return d.base.ModuleCall(name, outputs, rng)
}

func unknownRun(name string, rng hcl.Range) diag.Diagnostic {
	return diag.At(rng, "Reference to unknown run block",
		fmt.Sprintf("The run block %q does not exist within this test file, or has not run before this one.", name))
}
