package command

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// operationFlags are the flags plan, apply and destroy share.
type operationFlags struct {
	vars             []varFlag
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
}

func (m *Meta) addOperationFlags(fs *flag.FlagSet, f *operationFlags) {
	addVarFlags(fs, &f.vars)
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
	fs.BoolVar(&f.refresh, "refresh", true, "Skip checking remote objects for changes made outside rig while planning: faster, at the risk of planning against a stale record of them.")
	f.parallelism = 10
	fs.Func("parallelism", "Run at most `N` operations at once (default 10, or parallelism in rig.hcl).", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("want a whole number greater than zero")
		}
		f.parallelism, f.parallelismSet = n, true
		return nil
	})
	fs.Var(limitFlags{limits: &f.limits}, "limit", "Run at most N operations at once of a provider, a resource type or a resource: `NAME=N`. Use this option more than once to limit more than one; limits can be set in rig.hcl too.")
	addLockFlags(fs, &f.lock, &f.lockTimeout)
	fs.BoolVar(&f.json, "json", false, "Print machine-readable output: one JSON message a line, as OpenTofu documents them. apply and destroy need -auto-approve or a saved plan with it.")
	addJSONIntoFlag(fs, &f.jsonInto)
	m.addLegacyStateFlags(fs, legacyAll)
}

// operationOutput opens the output of an operation: human, JSON or both
// (-json-into). The returned function closes the -json-into file.
func (m *Meta) operationOutput(f *operationFlags) (*output, func(), bool) {
	into, ds := openJSONInto(f.jsonInto, f.json)
	if ds.HasErrors() {
		out := m.newOutput(f.json, nil)
		out.diagnostics(ds)
		return nil, nil, false
	}
	if into == nil {
		return m.newOutput(f.json, nil), func() {}, true
	}
	return m.newOutput(false, into), func() { into.Close() }, true
}

// addVarFlags defines -var and -var-file, which append to vars in the
// order given.
func addVarFlags(fs *flag.FlagSet, vars *[]varFlag) {
	fs.Var(varFlagValue{items: vars}, "var", "Set a value for one of the input variables in the root module: `NAME=VALUE`. Use this option more than once to set more than one variable.")
	fs.Var(varFlagValue{items: vars, file: true}, "var-file", "Load variable values from the file at `PATH`, in addition to terraform.tfvars and *.auto.tfvars. Use this option more than once to load more than one file.")
}

// addLockFlags defines -lock and -lock-timeout.
func addLockFlags(fs *flag.FlagSet, lock *bool, timeout *time.Duration) {
	fs.BoolVar(lock, "lock", true, "Don't hold a state lock during the operation. This is dangerous if others might run commands against the same workspace at the same time.")
	fs.DurationVar(timeout, "lock-timeout", 0, "Retry a state lock held by someone else for up to `DURATION` (such as 30s); 0s, the default, tries once.")
}

// operation is a loaded working directory ready to plan: configuration,
// locked state store, state, variables and providers.
type operation struct {
	closeOnce sync.Once
	cfg       *config.Module
	store     backend.Store
	state     *state.State
	variables map[string]planner.InputValue
	providers *provider.Set
	unlock    func()
	// dependencies is rig.hcl's recorded_dependencies.
	dependencies plan.DependencyMode
	// cwd is path.cwd.
	cwd string
	// maxInstances is rig.hcl's max_instances (0: the default).
	maxInstances int
	// safeguards are rig.hcl's settings of rig's safeguards.
	safeguards safeguards
	// refreshHooks observes the refresh while planning; nil means none.
	refreshHooks plan.RefreshHooks
	// generated are the objects -generate-config-out imported, which the
	// plan uses rather than importing them again.
	generated []planner.GeneratedResource
}

// close stops the providers and releases the lock; once, whoever calls
// it first (the command, or an interrupt stopping rig).
func (o *operation) close() {
	o.closeOnce.Do(func() {
		if o.providers != nil {
			_ = o.providers.Close()
		}
		if o.unlock != nil {
			o.unlock()
		}
	})
}

// prepare loads everything an operation needs and takes the state lock.
func (m *Meta) prepare(ctx context.Context, f *operationFlags, lockOp string) (*operation, diag.Diagnostics) {
	op := &operation{}
	m.onInterruptExit(op.close)
	cfg, ds := m.loadCheckedConfig()
	if ds.HasErrors() {
		return op, ds
	}
	if isEmptyConfig(cfg) && !f.destroy {
		return op, ds.Append(noConfigurationDiag(lockOp))
	}
	op.cfg = cfg
	cwd, more := m.workingDir()
	if ds = ds.Append(more); ds.HasErrors() {
		return op, ds
	}
	op.cwd = cwd
	st, more := m.loadSettings()
	ds = ds.Append(more)
	if ds.HasErrors() {
		return op, ds
	}
	if st.parallelism > 0 && !f.parallelismSet {
		f.parallelism = st.parallelism
	}
	f.limits = mergeLimits(st.limits, f.limits)
	op.dependencies = st.dependencies
	op.maxInstances = st.maxInstances
	op.safeguards = st.safeguards
	store, more := m.stateStore(ctx, cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return op, ds
	}
	op.store = store
	if f.lock {
		unlock, more := m.lockState(ctx, store, lockOp, f.lockTimeout)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return op, ds
		}
		op.unlock = unlock
	}
	s, more := readState(ctx, store)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return op, ds
	}
	// A run that crashed left its completed operations in the journal:
	// fold them into the state file before anything else (we hold the
	// lock). Without the lock the journal may be a running apply's: it is
	// read, never folded or removed.
	if f.lock {
		endWriting := m.beginWriting()
		ds = ds.Append(statemgr.Recover(ctx, store, s))
		endWriting()
	} else {
		replayed, more := statemgr.Replay(ctx, store, s)
		ds = ds.Append(more)
		if replayed && !more.HasErrors() {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "State journal read without the lock",
				Detail: "The state has a journal of operations from a run that is still going on or was interrupted. Without the lock (-lock=false) rig read it together with the state but left both as they are; the next run that takes the lock records them in the state."})
		}
	}
	if ds.HasErrors() {
		return op, ds
	}
	alignStateProviders(cfg, s)
	op.state = s
	if !f.savedPlan {
		vars, more := m.collectVariables(cfg, f.vars)
		ds = ds.Append(more)
		op.variables = vars
	}
	ds = ds.Append(m.checkProviders(cfg))
	if ds.HasErrors() {
		return op, ds
	}
	op.providers = provider.NewSet(m.providerFactories())
	// Calls to each provider configuration's API run at an adaptive
	// concurrency: up to the -parallelism the user set, else up to the
	// default read ceiling (writes stay within -parallelism).
	ceiling := provider.DefaultReadCeiling
	if f.parallelismSet || st.parallelism > 0 {
		ceiling = f.parallelism
	}
	op.providers.Adapt(provider.Adaptive{Ceiling: ceiling, Trace: true})
	return op, ds
}

// makePlan plans with the operation's inputs.
func (m *Meta) makePlan(ctx context.Context, op *operation, f *operationFlags) (*plan.Plan, diag.Diagnostics) {
	var ds diag.Diagnostics
	var replace []addrs.AbsResourceInstance
	for _, r := range f.replace {
		addr, err := addrs.ParseAbsResourceInstanceStr(r)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid replace address", "%s", err))
			continue
		}
		replace = append(replace, addr)
	}
	targets, more := parseTargets(f.targets, "target")
	ds = ds.Append(more)
	fromFiles, more := m.parseTargetFiles(f.targetFiles, "target")
	ds = ds.Append(more)
	targets = append(targets, fromFiles...)
	excludes, more := parseTargets(f.excludes, "exclude")
	ds = ds.Append(more)
	fromFiles, more = m.parseTargetFiles(f.excludeFiles, "exclude")
	ds = ds.Append(more)
	excludes = append(excludes, fromFiles...)
	if ds.HasErrors() {
		return nil, ds
	}
	mode := plan.NormalMode
	switch {
	case f.destroy:
		mode = plan.DestroyMode
	case f.refreshOnly:
		mode = plan.RefreshOnlyMode
	}
	start := time.Now()
	p, more := planner.Make(ctx, op.cfg, op.state, op.providers, planner.Options{
		Mode: mode, Variables: op.variables, Replace: replace, SkipRefresh: !f.refresh,
		Parallelism: f.parallelism, Limits: f.limits, Workspace: m.workspace(), Dependencies: op.dependencies, Cwd: op.cwd, MaxInstances: op.maxInstances,
		Targets: targets, Excludes: excludes, Hooks: op.refreshHooks, Generated: op.generated,
		RecordPreventDestroy: op.safeguards.recordPreventDestroy, HealthGates: op.safeguards.gates,
	})
	m.logPlan(p, time.Since(start))
	return p, ds.Append(more)
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
	if f.refreshOnly && len(f.replace) > 0 {
		ds = ds.Append(diag.Errorf("Unsupported combination of options", "The -replace option is not allowed with -refresh-only, because a refresh-only run cannot change any object."))
	}
	return ds
}

// parseTargets parses the addresses given to -target or -exclude (flag).
func parseTargets(addrsGiven []string, flag string) ([]addrs.Target, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []addrs.Target
	for _, s := range addrsGiven {
		t, err := addrs.ParseTargetStr(s)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid "+flag+" address", "%s", err))
			continue
		}
		out = append(out, t)
	}
	return out, ds
}

// parseTargetFiles parses the files given to -target-file or -exclude-file
// (flag): an address a line; blank lines and lines starting with # are
// skipped. A bad address is reported at its file and line, shown with it.
func (m *Meta) parseTargetFiles(paths []string, flag string) ([]addrs.Target, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []addrs.Target
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read "+flag+" file", "Reading %s: %s.", path, err))
			continue
		}
		if m.sources == nil {
			m.sources = map[string][]byte{}
		}
		m.sources[path] = b
		offset := 0
		for i, line := range strings.Split(string(b), "\n") {
			start := offset
			offset += len(line) + 1
			text := strings.TrimSpace(line)
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			t, err := addrs.ParseTargetStr(text)
			if err != nil {
				at := strings.Index(line, text)
				rng := hcl.Range{Filename: path,
					Start: hcl.Pos{Line: i + 1, Column: at + 1, Byte: start + at},
					End:   hcl.Pos{Line: i + 1, Column: at + 1 + len(text), Byte: start + at + len(text)}}
				ds = ds.Append(diag.At(rng, "Invalid "+flag+" address", err.Error()))
				continue
			}
			out = append(out, t)
		}
	}
	return out, ds
}

// targetingWarning is the warning a plan made with -target or -exclude
// starts with.
func targetingWarning(p *plan.Plan) diag.Diagnostics {
	if len(p.Targets) == 0 && len(p.Excludes) == 0 {
		return nil
	}
	return diag.Diagnostics{warningf("Resource targeting is in effect",
		"You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when rig specifically suggests to use it as part of an error message.")}
}

// partialApplyWarning is the warning an apply of a plan made with
// -target or -exclude ends with.
func partialApplyWarning(p *plan.Plan) diag.Diagnostics {
	if len(p.Targets) == 0 && len(p.Excludes) == 0 {
		return nil
	}
	return diag.Diagnostics{warningf("Applied changes may be incomplete",
		"The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    rig plan\n\nNote that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when rig specifically suggests to use it as part of an error message.")}
}

// warningf builds a warning diagnostic without a source range.
func warningf(summary, detailFormat string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}
