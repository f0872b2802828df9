package command

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// operationFlags are the flags plan, apply and destroy share.
type operationFlags struct {
	vars             []workdir.VarArg
	destroy          bool
	replace          []string
	targets          []string
	excludes         []string
	targetFiles      []string
	excludeFiles     []string
	refreshOnly      bool
	refresh          bool
	parallelism      int
	parallelismSet   bool
	limits           []apply.Limit
	lock             bool
	lockTimeout      time.Duration
	json             bool
	jsonInto         string
	detailedExitcode bool
	out              string
	autoApprove      bool
	// timeline is the file -timeline names: where apply and destroy
	// write the timeline page of the operations they ran; "" for none.
	timeline string
	// savedPlan is set when applying a saved plan, which carries its
	// variables: none are collected (or asked for).
	savedPlan bool
	// suppressForget is -suppress-forget-errors: a destroy that leaves
	// forgotten objects behind succeeds.
	suppressForget bool
	// refreshChanged is -refresh=changed; refreshSet says -refresh was
	// given; listRefreshed has the plan list what it read back, without
	// keeping refresh times (rig drift).
	refreshChanged, refreshSet, listRefreshed bool
	// refreshCommand is set for the refresh command: a refresh-only apply
	// that, as OpenTofu's refresh, accepts a directory without
	// configuration, keeps the root outputs the configuration does not
	// declare, and shows no plan and no summary.
	refreshCommand bool
	// invoke are the actions -invoke names (invoke.go).
	invoke []string
}

func (m *Meta) addOperationFlags(fs *flag.FlagSet, f *operationFlags) {
	m.varFlags(fs, &f.vars)
	fs.Func("replace", "Force replacement of the resource instance at `ADDRESS`, even if the plan would otherwise update it or leave it unchanged. Use this option more than once to replace more than one instance.", func(s string) error {
		f.replace = append(f.replace, s)
		return nil
	})
	fs.Func("target", "Limit the operation to the resource, resource instance or module at `ADDRESS` and everything it depends on. Use this option more than once to include more than one object. This is for exceptional use only.", func(s string) error {
		f.targets = append(f.targets, s)
		return nil
	})
	fs.Func("exclude", "Leave out the resource, resource instance or module at `ADDRESS` and everything that depends on it. Use this option more than once to exclude more than one object. This is for exceptional use only.", func(s string) error {
		f.excludes = append(f.excludes, s)
		return nil
	})
	fs.Func("target-file", "Like -target, with the addresses read from `FILE`, one a line (blank lines and lines starting with # are skipped). Use this option more than once to read more than one file.", func(s string) error {
		f.targetFiles = append(f.targetFiles, s)
		return nil
	})
	fs.Func("exclude-file", "Like -exclude, with the addresses read from `FILE`, one a line (blank lines and lines starting with # are skipped). Use this option more than once to read more than one file.", func(s string) error {
		f.excludeFiles = append(f.excludeFiles, s)
		return nil
	})
	f.refresh = true
	fs.Var(cliargs.Refresh{Value: &f.refresh, Changed: &f.refreshChanged, Given: &f.refreshSet}, "refresh", "Skip checking remote objects for changes made outside rig while planning: faster, at the risk of planning against a stale record of them. -refresh=changed checks only those whose configuration, inputs or dependencies changed, those the plan changes, and those not checked for longer than refresh_max_age in rig.hcl (default 24h).")
	f.parallelism = 10
	fs.Func("parallelism", "Run at most `N` operations at once (default 10, or parallelism in rig.hcl).", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("want a whole number greater than zero")
		}
		f.parallelism, f.parallelismSet = n, true
		return nil
	})
	fs.Var(cliargs.Limit{Add: func(name string, n int) { f.limits = append(f.limits, apply.Limit{Name: name, N: n}) }}, "limit", "Run at most N operations at once of a provider, a resource type or a resource: `NAME=N`. Use this option more than once to limit more than one; limits can be set in rig.hcl too.")
	addLockFlags(fs, &f.lock, &f.lockTimeout)
	fs.BoolVar(&f.json, "json", false, "Print machine-readable output: one JSON message a line, as OpenTofu documents them. apply and destroy need -auto-approve or a saved plan with it.")
	addJSONIntoFlag(fs, &f.jsonInto)
	m.addLegacyStateFlags(fs, legacyAll)
}

// operationOutput opens the output of an operation: human, JSON or both
// (-json-into). The returned function closes the -json-into file.
func (m *Meta) operationOutput(f *operationFlags) (*ui.OperationView, func(), bool) {
	into, ds := ui.OpenJSONInto(f.jsonInto, f.json)
	if ds.HasErrors() {
		out := m.newOutput(f.json, nil)
		out.Diagnostics(ds)
		return nil, nil, false
	}
	if into == nil {
		return m.newOutput(f.json, nil), func() {}, true
	}
	return m.newOutput(false, into), func() { into.Close() }, true
}

// addVarFlags defines -var and -var-file, which append to vars in the
// order given.
func addVarFlags(fs *flag.FlagSet, vars *[]workdir.VarArg) {
	fs.Var(varFlagValue{items: vars}, "var", "Set a value for one of the input variables in the root module: `NAME=VALUE`. Use this option more than once to set more than one variable.")
	fs.Var(varFlagValue{items: vars, file: true}, "var-file", "Load variable values from the file at `PATH`, in addition to terraform.tfvars and *.auto.tfvars. Use this option more than once to load more than one file.")
}

// addLockFlags defines -lock and -lock-timeout.
func addLockFlags(fs *flag.FlagSet, lock *bool, timeout *time.Duration) {
	fs.BoolVar(lock, "lock", true, "Don't hold a state lock during the operation. This is dangerous if others might run commands against the same workspace at the same time.")
	fs.DurationVar(timeout, "lock-timeout", 0, "Retry a state lock held by someone else for up to `DURATION` (such as 30s); 0s, the default, tries once.")
}

// open opens the working directory for an operation (workdir.Open): its
// configuration, locked state store, state, variables and providers.
// Diagnostics are rendered with the files it read. The session is never
// nil; the caller closes it.
func (m *Meta) open(ctx context.Context, f *operationFlags, lockOp string) (*workdir.Session, diag.Diagnostics) {
	parallelism := 0
	if f.parallelismSet {
		parallelism = f.parallelism
	}
	opts := workdir.OpenOptions{
		Operation: lockOp, Lock: workdir.LockOptions{Lock: f.lock, Timeout: f.lockTimeout}, AllowEmpty: allowEmpty(f),
		Vars: f.vars, SkipVariables: f.savedPlan, Parallelism: parallelism, Limits: f.limits, Guard: m.interrupts,
	}
	if m.inputAllowed() {
		opts.Ask = m.askVariable
	}
	sess, ds := m.dir().Open(ctx, opts)
	m.sources = sess.Sources
	return sess, ds
}

// allowEmpty reports whether an operation accepts a directory without
// configuration: a destroy and a refresh need none, and a saved plan
// carries its own (compared with the directory's when applied).
func allowEmpty(f *operationFlags) bool { return f.destroy || f.savedPlan || f.refreshCommand }

// makePlan plans with the session's inputs and the planning flags
// (workdir.Session.PlanFor); out, when not nil, shows the refresh and the
// progress. It returns the plan's refresh times, which a plan or apply
// records once its state is persisted.
func (m *Meta) makePlan(ctx context.Context, sess *workdir.Session, f *operationFlags, out *ui.OperationView) (*plan.Plan, *workdir.RefreshTracking, diag.Diagnostics) {
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	req := workdir.PlanRequest{
		Selection: workdir.PlanSelection{Replace: f.replace, Targets: f.targets, Excludes: f.excludes, TargetFiles: f.targetFiles, ExcludeFiles: f.excludeFiles, Invoke: f.invoke},
		Destroy:   f.destroy, RefreshOnly: f.refreshOnly, Refresh: f.refresh,
		Refreshes: workdir.RefreshFlags{Changed: f.refreshChanged, Set: f.refreshSet, ListOnly: f.listRefreshed},
	}
	if out != nil {
		req.Hooks = out.RefreshHooks()
		req.Begin = func(mode plan.Mode) func() { return out.Progress.BeginPlan(mode, sess.ProgressInterval) }
	}
	return sess.PlanFor(ctx, req, m.sources)
}

// checkOperationFlags reports combinations of operation flags that
// cannot go together.
func checkOperationFlags(f *operationFlags) diag.Diagnostics {
	var ds diag.Diagnostics
	if len(f.targets)+len(f.targetFiles) > 0 && len(f.excludes)+len(f.excludeFiles) > 0 {
		ds = ds.Append(diag.Errorf("Invalid combination of arguments", "The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options."))
	}
	if f.destroy && f.refreshOnly {
		ds = ds.Append(diag.Errorf("Incompatible plan mode options", "The -destroy and -refresh-only options are mutually-exclusive."))
	}
	if f.refreshOnly && !f.refresh {
		ds = ds.Append(diag.Errorf("Incompatible refresh options", "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because rig would have nothing to do."))
	}
	ds = ds.Append(checkInvokeFlags(f))
	if f.refreshOnly && len(f.replace) > 0 {
		ds = ds.Append(diag.Errorf("Unsupported combination of options", "The -replace option is not allowed with -refresh-only, because a refresh-only run cannot change any object."))
	}
	return ds
}

// warningf builds a warning diagnostic without a source range.
func warningf(summary, detailFormat string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}
