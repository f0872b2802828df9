package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// testFileSchema is the top level of a test file: OpenTofu 1.12's blocks
// and Terraform 1.16's (the test block and variable blocks).
var testFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_ephemeral"},
		{Type: "override_module"},
		{Type: "test"},
	},
}

var testBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "parallel"}, {Name: "skip_cleanup"}},
}

var testRunBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"},
		{Name: "state_key"}, {Name: "parallel"}, {Name: "skip_cleanup"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "plan_options"}, {Type: "assert"}, {Type: "variables"}, {Type: "module"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_ephemeral"}, {Type: "override_module"},
		{Type: "backend", LabelNames: []string{"type"}},
	},
}

var testPlanOptionsSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"}},
}

var testModuleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}},
}

// ParseTestFile decodes one test file: src is its content, path the
// filename its source ranges use and name its path relative to the module
// directory (TestFile.Name). The syntax is JSON for a name ending in
// ".json", native otherwise. The returned file is never nil; with error
// diagnostics it is partial (a run block with errors is left out).
func ParseTestFile(name, path string, src []byte) (*TestFile, diag.Diagnostics) {
	tf := &TestFile{
		Name: name, Path: path, Source: src,
		Variables: map[string]hcl.Expression{}, VariableDecls: map[string]*Variable{},
		Providers: map[string]*Provider{}, Mocks: map[string]*MockProvider{},
	}
	body, diags := parseFile(path, src)
	if body == nil {
		return tf, diag.FromHCL(diags)
	}
	if more := checkFileNumberLiterals(body, src); more.HasErrors() {
		return tf, diag.FromHCL(append(diags, more...))
	}
	content, more := body.Content(testFileSchema)
	diags = append(diags, more...)

	// The test block comes first: its settings are the run blocks' defaults.
	var testBlock *hcl.Block
	for _, b := range content.Blocks {
		if b.Type != "test" {
			continue
		}
		if testBlock != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Multiple "test" blocks`,
				Detail: fmt.Sprintf(`This test file already has a "test" block defined at %s.`, testBlock.DefRange), Subject: b.DefRange.Ptr()})
			continue
		}
		testBlock = b
		tc, more := b.Body.Content(testBlockSchema)
		diags = append(diags, more...)
		if attr, ok := tc.Attributes["parallel"]; ok {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &tf.Parallel)...)
		}
		if attr, ok := tc.Attributes["skip_cleanup"]; ok {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &tf.SkipCleanup)...)
		}
	}

	runNames := map[string]hcl.Range{}
	var variablesRange *hcl.Range
	for _, b := range content.Blocks {
		switch b.Type {
		case "run":
			run, more := decodeTestRun(b, tf)
			diags = append(diags, more...)
			if prev, dup := runNames[run.Name]; dup {
				// Terraform refuses this, OpenTofu runs both: so does rig,
				// warning that run.NAME then means the later one.
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: `Duplicate "run" block names`,
					Detail: fmt.Sprintf("This test file already has a run named %s block defined at %s. Both run; run.%s refers to the outputs of the one that ran last.", run.Name, prev, run.Name), Subject: run.NameRange.Ptr()})
			}
			runNames[run.Name] = run.DeclRange
			if !more.HasErrors() {
				run.Index = len(tf.Runs)
				tf.Runs = append(tf.Runs, run)
			}
		case "variables":
			if variablesRange != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Multiple "variables" blocks`,
					Detail: fmt.Sprintf("This test file already has a variables block defined at %s.", *variablesRange), Subject: b.DefRange.Ptr()})
				continue
			}
			variablesRange = b.DefRange.Ptr()
			attrs, more := b.Body.JustAttributes()
			diags = append(diags, more...)
			for _, a := range attrs {
				tf.Variables[a.Name] = a.Expr
			}
		case "variable":
			v, more := decodeVariableBlock(b)
			diags = append(diags, more...)
			if prev, dup := tf.VariableDecls[v.Name]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Duplicate "variable" block names`,
					Detail: fmt.Sprintf("This test file already has a variable named %s defined at %s.", v.Name, prev.DeclRange), Subject: v.DeclRange.Ptr()})
				continue
			}
			tf.VariableDecls[v.Name] = v
		case "provider":
			p, more := decodeProviderBlock(b)
			diags = append(diags, more...)
			if p == nil {
				continue
			}
			diags = append(diags, tf.addProviderKey(p.Key(), p.DeclRange)...)
			tf.Providers[p.Key()] = p
		case "mock_provider":
			mp, more := decodeMockProviderBlock(b)
			diags = append(diags, more...)
			if mp == nil {
				continue
			}
			diags = append(diags, tf.addProviderKey(mp.Key(), mp.DeclRange)...)
			tf.Mocks[mp.Key()] = mp
		case "override_resource", "override_data", "override_ephemeral", "override_module":
			o, more := decodeOverrideBlock(b, DuringApply)
			diags = append(diags, more...)
			if o != nil {
				diags = append(diags, checkDuplicateOverride(tf.Overrides, o)...)
				tf.Overrides = append(tf.Overrides, o)
			}
		}
	}
	for name, v := range tf.VariableDecls {
		if expr, ok := tf.Variables[name]; ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Duplicate "variable" block names`,
				Detail: fmt.Sprintf("This test file already has a variable named %s defined at %s.", name, expr.Range()), Subject: v.DeclRange.Ptr()})
		}
	}
	return tf, diag.FromHCL(diags)
}

// addProviderKey reports a provider or mock_provider block whose key an
// earlier block of the file has.
func (tf *TestFile) addProviderKey(key string, rng hcl.Range) hcl.Diagnostics {
	if p, ok := tf.Providers[key]; ok {
		return duplicateTestProvider(key, p.DeclRange, rng)
	}
	if p, ok := tf.Mocks[key]; ok {
		return duplicateTestProvider(key, p.DeclRange, rng)
	}
	return nil
}

func duplicateTestProvider(key string, prev, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate provider block",
		Detail: fmt.Sprintf("A provider for %s is already defined at %s.", key, prev), Subject: rng.Ptr()}}
}

func decodeTestRun(block *hcl.Block, tf *TestFile) (*TestRun, hcl.Diagnostics) {
	run := &TestRun{
		Name: block.Labels[0], NameRange: block.LabelRanges[0], DeclRange: block.DefRange,
		Refresh: true, Variables: map[string]hcl.Expression{},
		Parallel: tf.Parallel, SkipCleanup: tf.SkipCleanup,
	}
	content, diags := block.Body.Content(testRunBlockSchema)
	if !hclsyntax.ValidIdentifier(run.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid run block name",
			Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	var optionsRange, variablesRange *hcl.Range
	for _, b := range content.Blocks {
		switch b.Type {
		case "assert":
			cr, more := decodeCheckRuleBlock(b)
			diags = append(diags, more...)
			if !more.HasErrors() {
				run.Asserts = append(run.Asserts, cr)
			}
		case "plan_options":
			if optionsRange != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Multiple "plan_options" blocks`,
					Detail: fmt.Sprintf("This run block already has a plan_options block defined at %s.", *optionsRange), Subject: b.DefRange.Ptr()})
				continue
			}
			optionsRange = b.DefRange.Ptr()
			diags = append(diags, run.decodePlanOptions(b)...)
		case "variables":
			if variablesRange != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Multiple "variables" blocks`,
					Detail: fmt.Sprintf("This run block already has a variables block defined at %s.", *variablesRange), Subject: b.DefRange.Ptr()})
				continue
			}
			variablesRange = b.DefRange.Ptr()
			attrs, more := b.Body.JustAttributes()
			diags = append(diags, more...)
			for _, a := range attrs {
				run.Variables[a.Name] = a.Expr
			}
		case "module":
			if run.Module != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Multiple "module" blocks`,
					Detail: fmt.Sprintf("This run block already has a module block defined at %s.", run.Module.DeclRange), Subject: b.DefRange.Ptr()})
				continue
			}
			mod, more := decodeTestModule(b)
			diags = append(diags, more...)
			if !more.HasErrors() {
				run.Module = mod
			}
		case "override_resource", "override_data", "override_ephemeral", "override_module":
			o, more := decodeOverrideBlock(b, DuringApply)
			diags = append(diags, more...)
			if o != nil {
				diags = append(diags, checkDuplicateOverride(run.Overrides, o)...)
				run.Overrides = append(run.Overrides, o)
			}
		case "backend":
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Backend blocks in run blocks are not supported",
				Detail:  "rig keeps the state of every run block in memory and does not load nor keep it in a backend; remove the backend block.",
				Subject: b.DefRange.Ptr()})
		}
	}
	if attr, ok := content.Attributes["command"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "apply":
			run.Command = ApplyCommand
		case "plan":
			run.Command = PlanCommand
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "command" keyword`,
				Detail: `The "command" argument requires one of the following keywords without quotes: apply or plan.`, Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["providers"]; ok {
		passed, more := decodePassedProviders(attr)
		diags = append(diags, more...)
		run.Providers, run.ProvidersSet = passed, true
	}
	if attr, ok := content.Attributes["expect_failures"]; ok {
		failures, more := decodeDependsOn(attr)
		diags = append(diags, more...)
		run.ExpectFailures = failures
	}
	switch attr, ok := content.Attributes["state_key"]; {
	case ok:
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &run.StateKey)...)
	case run.Module != nil:
		run.StateKey = run.Module.Source
	}
	if attr, ok := content.Attributes["parallel"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &run.Parallel)...)
	}
	if attr, ok := content.Attributes["skip_cleanup"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &run.SkipCleanup)...)
	}
	return run, diags
}

func (run *TestRun) decodePlanOptions(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(testPlanOptionsSchema)
	if attr, ok := content.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "refresh-only":
			run.RefreshOnly = true
		case "normal":
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "mode" keyword`,
				Detail: `The "mode" argument requires one of the following keywords without quotes: normal or refresh-only`, Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["refresh"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &run.Refresh)...)
		if !run.Refresh && run.RefreshOnly {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible plan options",
				Detail: `The "refresh" option cannot be set to false when running a test in "refresh-only" mode.`, Subject: attr.Range.Ptr()})
		}
	}
	for _, name := range []string{"replace", "target"} {
		attr, ok := content.Attributes[name]
		if !ok {
			continue
		}
		travs, more := decodeDependsOn(attr)
		diags = append(diags, more...)
		for _, t := range travs {
			target, err := addrs.ParseTarget(t)
			switch {
			case err != nil:
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name + " address",
					Detail: upperFirstRune(err.Error()) + ".", Subject: t.SourceRange().Ptr()})
				continue
			case name == "replace" && (target.Kind == addrs.ModuleTarget || target.Resource.Mode != addrs.Managed):
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Can only target managed resources for forced replacements.",
					Detail: target.String(), Subject: t.SourceRange().Ptr()})
				continue
			}
			if name == "replace" {
				run.Replace = append(run.Replace, t)
			} else {
				run.Target = append(run.Target, t)
			}
		}
	}
	return diags
}

func decodeTestModule(block *hcl.Block) (*TestModule, hcl.Diagnostics) {
	mod := &TestModule{DeclRange: block.DefRange}
	content, diags := block.Body.Content(testModuleBlockSchema)
	if attr, ok := content.Attributes["version"]; ok {
		v, more := decodeVersionConstraint(attr)
		diags = append(diags, more...)
		mod.Version = v
	}
	attr, ok := content.Attributes["source"]
	if !ok {
		return mod, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Missing "source" attribute for module block`,
			Detail: "You must specify a source attribute when executing alternate modules during test executions.", Subject: block.DefRange.Ptr()})
	}
	mod.SourceRange = attr.Expr.Range()
	diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &mod.Source)...)
	if mod.Version != "" && IsLocalSource(mod.Source) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid registry module source address",
			Detail:  fmt.Sprintf("Failed to parse module registry address: %q is a local path.\n\nrig assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", mod.Source),
			Subject: mod.SourceRange.Ptr()})
	}
	return mod, diags
}

// CheckExpectFailures reports the run's expect_failures entries that name
// no checkable object: only variables, outputs, check blocks, resources and
// data sources (and their instances) can be expected to fail. As in
// OpenTofu, this is an error of the run, not of the file.
func (run *TestRun) CheckExpectFailures() diag.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range run.ExpectFailures {
		root := t.RootName()
		switch {
		case root == "var" || root == "output" || root == "check":
			if len(t) < 2 {
				diags = append(diags, invalidExpectFailure(t, root))
			}
			continue
		case root == "module" || root == "local" || root == "run" || root == "path" || root == "terraform" || root == "tofu" || root == "count" || root == "each" || root == "self":
			diags = append(diags, invalidExpectFailure(t, traversalText(t)))
			continue
		}
		if _, err := addrs.ParseTarget(t); err != nil {
			diags = append(diags, invalidExpectFailure(t, traversalText(t)))
		}
	}
	return diag.FromHCL(diags)
}

func invalidExpectFailure(t hcl.Traversal, what string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid `expect_failures` reference",
		Detail:  fmt.Sprintf("You cannot expect failures from %s. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.", what),
		Subject: t.SourceRange().Ptr()}
}

// traversalText writes a traversal back in reference syntax.
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			k, err := addrs.KeyFromValue(s.Key)
			if err != nil {
				b.WriteString("[?]")
				continue
			}
			b.WriteString(k.String())
		default:
			if i > 0 {
				b.WriteString(".?")
			}
		}
	}
	return b.String()
}

func upperFirstRune(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
