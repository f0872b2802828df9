package testrun

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// Validate checks a test file against the configurations its runs
// execute, without running anything, as OpenTofu's validate checks it:
// expect_failures name checkable kinds of object, a provider a run passes
// is of the type the module under test expects, and, as Terraform warns,
// overrides target what exists. What assertions and expect_failures refer
// to, and the providers runs name, are left to rig test, which reports
// them as it runs, as OpenTofu's test does. cfg is the module under test;
// load loads the modules of module blocks (nil: they are not checked).
func Validate(file *config.TestFile, cfg *config.Module, load ModuleLoader) diag.Diagnostics {
	var ds diag.Diagnostics
	configs := map[*config.TestRun]*config.Module{}
	for _, run := range file.Runs {
		target := cfg
		if run.Module != nil {
			if load == nil {
				continue
			}
			m, more := load(file, run)
			if ds = ds.Append(more); more.HasErrors() || m == nil {
				continue
			}
			target = m
		}
		configs[run] = target
	}
	for _, run := range file.Runs {
		ds = ds.Append(run.CheckExpectFailures())
		for _, pp := range run.Providers {
			if _, real := file.Providers[pp.InParent.String()]; real && configs[run] != nil {
				ds = ds.Append(passedTypeMismatch(file, cfg, configs[run], pp))
			}
		}
		if target := configs[run]; target != nil {
			for _, o := range run.Overrides {
				ds = ds.Append(checkOverrideTarget(o, target))
			}
		}
	}
	for _, o := range file.Overrides {
		found := false
		for _, target := range configs {
			if overrideTargetExists(o, target) {
				found = true
			}
		}
		if !found {
			ds = ds.Append(invalidOverrideTarget(o))
		}
	}
	return ds
}

func checkOverrideTarget(o *config.Override, cfg *config.Module) diag.Diagnostics {
	if overrideTargetExists(o, cfg) {
		return nil
	}
	return diag.Diagnostics{invalidOverrideTarget(o)}
}

func invalidOverrideTarget(o *config.Override) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid override target", Subject: o.TargetRange.Ptr(),
		Detail: fmt.Sprintf("The override target %s does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.", o.Target)}
}

// overrideTargetExists reports whether cfg has the module or resource o
// targets.
func overrideTargetExists(o *config.Override, cfg *config.Module) bool {
	if cfg == nil {
		return false
	}
	m := cfg.Descendant(o.Target.Module.Module())
	if m == nil {
		return false
	}
	if o.Target.Kind == addrs.ModuleTarget {
		return true
	}
	return m.ResourceByAddr(o.Target.Resource) != nil
}

// passedTypeMismatch reports, as OpenTofu does, a run's providers entry
// that hands the module under test (target) a provider configuration of
// the file (whose names cfg's required_providers give types to) of another
// provider type than the module's name for it stands for.
func passedTypeMismatch(file *config.TestFile, cfg, target *config.Module, pp config.PassedProvider) diag.Diagnostics {
	given := cfg.ProviderFor(pp.InParent.Name)
	want := target.ProviderFor(pp.InChild.Name)
	if given.SameAs(want) {
		return nil
	}
	module := "the root module"
	if target != cfg {
		module = "the module under test"
	}
	return diag.Diagnostics{diag.At(pp.InParent.NameRange, "Provider type mismatch",
		fmt.Sprintf("The local name %q in %s stands for provider %q, but %q in %s stands for %q: a run can only pass a configuration of the provider type the module expects.",
			pp.InParent.Name, file.Name, given.ForDisplay(), pp.InChild.Name, module, want.ForDisplay()))}
}
