package testrun

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// Validate checks a test file against the configurations its runs
// execute, without running anything: the providers runs name exist in the
// file; assertions refer to resources, outputs, local values, module calls
// and earlier runs that exist; expect_failures name checkable objects that
// exist; overrides target what exists (a warning otherwise, as Terraform
// gives). cfg is the module under test; load loads the modules of module
// blocks (nil: they are not checked).
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
	earlier := map[string]bool{}
	for _, run := range file.Runs {
		ds = ds.Append(run.CheckExpectFailures())
		for _, pp := range run.Providers {
			_, real := file.Providers[pp.InParent.String()]
			_, mock := file.Mocks[pp.InParent.String()]
			if !real && !mock {
				ds = ds.Append(diag.At(pp.InParent.NameRange, fmt.Sprintf("Missing provider definition for %s", pp.InParent.String()),
					"This provider block references a provider definition that does not exist."))
			}
			if real && configs[run] != nil {
				ds = ds.Append(passedTypeMismatch(file, cfg, configs[run], pp))
			}
		}
		target := configs[run]
		for _, rule := range run.Asserts {
			ds = ds.Append(checkAssertRefs(rule.Condition, target, earlier))
			ds = ds.Append(checkAssertRefs(rule.ErrorMessage, target, earlier))
		}
		if target != nil {
			for _, t := range run.ExpectFailures {
				ds = ds.Append(checkExpectedExists(t, target))
			}
			for _, o := range run.Overrides {
				ds = ds.Append(checkOverrideTarget(o, target))
			}
		}
		earlier[run.Name] = true
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

// checkAssertRefs reports references of an assertion to what cfg (nil: not
// loaded) does not declare and to runs not in earlier.
func checkAssertRefs(expr hcl.Expression, cfg *config.Module, earlier map[string]bool) diag.Diagnostics {
	if expr == nil {
		return nil
	}
	refs, ds := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		switch {
		case ref.Kind == lang.ResourceRef && ref.Resource.Mode == addrs.Managed && ref.Resource.Type == "run":
			if !earlier[ref.Resource.Name] {
				ds = ds.Append(unknownRun(ref.Resource.Name, ref.Range))
			}
		case cfg == nil:
		case ref.Kind == lang.ResourceRef && ref.Resource.Mode == addrs.Managed && ref.Resource.Type == "output":
			if cfg.Outputs[ref.Resource.Name] == nil {
				ds = ds.Append(diag.At(ref.Range, "Reference to undeclared output value",
					fmt.Sprintf("An output value with the name %q has not been declared.", ref.Resource.Name)))
			}
		case ref.Kind == lang.ResourceRef:
			if cfg.ResourceByAddr(ref.Resource) == nil {
				kind := "managed resource"
				if ref.Resource.Mode == addrs.Data {
					kind = "data resource"
				}
				ds = ds.Append(diag.At(ref.Range, "Reference to undeclared resource",
					fmt.Sprintf("A %s %q %q has not been declared in the root module.", kind, ref.Resource.Type, ref.Resource.Name)))
			}
		case ref.Kind == lang.LocalValue:
			if cfg.Locals[ref.Name] == nil {
				ds = ds.Append(diag.At(ref.Range, "Reference to undeclared local value",
					fmt.Sprintf("A local value with the name %q has not been declared.", ref.Name)))
			}
		case ref.Kind == lang.ModuleCallOutput:
			if cfg.ModuleCalls[ref.Name] == nil {
				ds = ds.Append(diag.At(ref.Range, "Reference to undeclared module",
					fmt.Sprintf("No module call named %q is declared in the root module.", ref.Name)))
			}
		}
	}
	return ds
}

// checkExpectedExists reports an expect_failures entry naming nothing cfg
// declares: that failure could never happen.
func checkExpectedExists(t hcl.Traversal, cfg *config.Module) diag.Diagnostics {
	name := ""
	if len(t) > 1 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			name = a.Name
		}
	}
	missing := func(what string) diag.Diagnostics {
		return diag.Diagnostics{diag.At(t.SourceRange(), "Reference to undeclared checkable object",
			fmt.Sprintf("The run expects a failure of %s, which the configuration under test does not declare.", what))}
	}
	switch t.RootName() {
	case "var":
		if cfg.Variables[name] == nil {
			return missing("var." + name)
		}
	case "output":
		if cfg.Outputs[name] == nil {
			return missing("output." + name)
		}
	case "check":
		if cfg.Check(name) == nil {
			return missing("check." + name)
		}
	default:
		target, err := addrs.ParseTarget(t)
		if err == nil && target.Kind != addrs.ModuleTarget && target.Module.IsRoot() && cfg.ResourceByAddr(target.Resource) == nil {
			return missing(target.Resource.String())
		}
	}
	return nil
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
