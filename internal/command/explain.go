package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/explain"
	"github.com/rig-iac/rig/internal/plan"
)

// runExplain explains what a plan does to the objects an address names,
// and why: a saved plan given as second argument, or a new plan made with
// the usual planning flags.
func runExplain(m *Meta, args []string) int {
	fs := m.flagSet("explain")
	var f operationFlags
	f.refresh, f.lock, f.parallelism = true, true, 10
	m.varFlags(fs, &f.vars)
	fs.Func("replace", "Plan as if -replace named the resource instance at `ADDRESS`. Use this option more than once to replace more than one instance.", func(s string) error {
		f.replace = append(f.replace, s)
		return nil
	})
	fs.Func("target", "Plan as if -target named the resource, resource instance or module at `ADDRESS`. Use this option more than once to include more than one object.", func(s string) error {
		f.targets = append(f.targets, s)
		return nil
	})
	fs.Func("exclude", "Plan as if -exclude named the resource, resource instance or module at `ADDRESS`. Use this option more than once to exclude more than one object.", func(s string) error {
		f.excludes = append(f.excludes, s)
		return nil
	})
	fs.BoolVar(&f.destroy, "destroy", false, "Explain a plan to destroy every object the state manages.")
	addInvokeFlag(fs, &f)
	fs.Var(cliargs.Refresh{Value: &f.refresh, Changed: &f.refreshChanged, Given: &f.refreshSet}, "refresh", "Plan as if -refresh=false (or -refresh=changed) were given: explain says, for each object, whether the plan read it back and why.")
	addLockFlags(fs, &f.lock, &f.lockTimeout)
	fs.BoolVar(&f.json, "json", false, "Print the explanation as one JSON document.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = f.json
	switch {
	case fs.NArg() == 0:
		return m.argsError(fs, "Missing address", "The explain command needs the address of a resource, resource instance, deposed object, module, action or ephemeral resource to explain.")
	case fs.NArg() > 2:
		return m.argsError(fs, "Too many command line arguments", "Expected an address and, optionally, the path of a saved plan file.")
	}
	addr, err := explain.ParseAddress(fs.Arg(0))
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid address", "%s", err)})
		return 1
	}
	if ds := checkOperationFlags(&f); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	p, cfg, code := m.explainedPlan(fs.Arg(1), &f)
	if p == nil {
		return code
	}
	g, ds := apply.OrderWith(p, apply.OrderOptions{Rules: true, Config: cfg})
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	x, ds := m.explainExtras(context.Background(), p, cfg, addr)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	rep, ok := explain.ExplainWith(p, g, cfg, addr, x)
	if !ok {
		m.showDiagnostics(diag.Diagnostics{notExplained(p, addr)})
		return 1
	}
	write := explain.WriteText
	if f.json {
		write = explain.WriteJSON
	}
	if err := write(m.Out, rep); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write the explanation", "%s", err)})
		return 1
	}
	return 0
}

// explainedPlan reads the saved plan at path, or plans afresh when path is
// "", and returns it with the configuration it was made from; on failure
// the plan is nil and code is the exit status.
func (m *Meta) explainedPlan(path string, f *operationFlags) (p *plan.Plan, cfg *config.Module, code int) {
	if path != "" {
		pf, err := m.readSavedPlan(path)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
			return nil, nil, 1
		}
		if pf.Plan.Errored {
			// Saved by a plan that stopped with errors.
			fmt.Fprintln(m.Err, "The plan is incomplete.")
		}
		return pf.Plan, m.dir().PlannedConfig(pf), 0
	}
	ctx := context.Background()
	sess, ds := m.open(ctx, f, "OperationTypePlan")
	defer sess.Close()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return nil, nil, 1
	}
	p, _, more := m.makePlan(ctx, sess, f, nil)
	ds = ds.Append(more)
	if ds.HasErrors() && !plan.OnlyRefusals(p, ds) {
		// A plan whose only errors refuse protected deletions is whole:
		// it is explained, the refusals among the reasons.
		m.showDiagnostics(ds)
		return nil, nil, 1
	}
	if len(ds) > 0 {
		m.showDiagnostics(ds)
	}
	if p.Errored {
		fmt.Fprintln(m.Err, "The plan is incomplete.")
	}
	return p, sess.Config, 0
}
