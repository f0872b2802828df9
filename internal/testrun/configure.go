package testrun

import (
	"fmt"
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// cloneTree returns a copy of the module tree under m whose Module values
// are new (relinked through Parent and Children) and share everything else
// with m's, so that one run's changes to a module (its provider
// configurations) leave every other run's alone. m is the root of the copy.
func cloneTree(m *config.Module) *config.Module {
	return cloneModule(m, nil)
}

func cloneModule(m, parent *config.Module) *config.Module {
	c := *m
	c.Parent = parent
	if m.Children != nil {
		c.Children = make(map[string]*config.Module, len(m.Children))
		for name, child := range m.Children {
			c.Children[name] = cloneModule(child, &c)
		}
	}
	return &c
}

// withTestProviders returns a copy of cfg whose root module has the
// provider configurations a run asks for besides its own: the run's
// providers argument, each of the test file's configurations it names
// under the module's name for it; without that argument, every provider
// and mock_provider block of the file, under its own name. The blocks of
// the file are evaluated in ctx (the run's variables and the outputs of
// earlier runs), not in the module. mocks receives the mock providers the
// copy uses, by their name in the module ("name" or "name.alias").
func withTestProviders(cfg *config.Module, file *config.TestFile, run *config.TestRun, ctx *hcl.EvalContext) (*config.Module, map[string]*config.MockProvider, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := cloneTree(cfg)
	out.ProviderConfigs = maps.Clone(cfg.ProviderConfigs)
	if out.ProviderConfigs == nil {
		out.ProviderConfigs = map[string]*config.Provider{}
	}
	mocks := map[string]*config.MockProvider{}
	use := func(key, name, alias string, aliasRange *hcl.Range) bool {
		if p, ok := file.Providers[key]; ok {
			np := *p
			np.Name, np.Alias, np.AliasRange = name, alias, aliasRange
			np.Config = &testProviderBody{body: p.Config, ctx: ctx}
			out.ProviderConfigs[np.Key()] = &np
			delete(mocks, np.Key())
			return true
		}
		if mp, ok := file.Mocks[key]; ok {
			np := &config.Provider{Name: name, NameRange: mp.NameRange, Alias: alias, AliasRange: aliasRange,
				ForEach: mp.ForEach, Config: hcl.EmptyBody(), DeclRange: mp.DeclRange}
			out.ProviderConfigs[np.Key()] = np
			mocks[np.Key()] = mp
			return true
		}
		return false
	}
	if len(run.Providers) > 0 {
		for _, pp := range run.Providers {
			if !use(pp.InParent.String(), pp.InChild.Name, pp.InChild.Alias, pp.InChild.AliasRange) {
				ds = ds.Append(diag.At(pp.InParent.NameRange, fmt.Sprintf("Missing provider definition for %s", pp.InParent.String()),
					"This provider block references a provider definition that does not exist."))
			}
		}
		return out, mocks, ds
	}
	for key, p := range file.Providers {
		use(key, p.Name, p.Alias, p.AliasRange)
	}
	for key, mp := range file.Mocks {
		use(key, mp.Name, mp.Alias, mp.AliasRange)
	}
	return out, mocks, ds
}

// testProviderBody is the body of a test file's provider block: its
// arguments are evaluated in the test file's context (variables, earlier
// runs' outputs, functions) rather than in the module the configuration is
// placed in. Nested blocks are wrapped the same way.
type testProviderBody struct {
	body hcl.Body
	ctx  *hcl.EvalContext
}

func (b *testProviderBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, diags := b.body.Content(schema)
	return b.wrap(content), diags
}

func (b *testProviderBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	content, remain, diags := b.body.PartialContent(schema)
	return b.wrap(content), &testProviderBody{body: remain, ctx: b.ctx}, diags
}

func (b *testProviderBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.body.JustAttributes()
	return b.wrapAttrs(attrs), diags
}

func (b *testProviderBody) MissingItemRange() hcl.Range { return b.body.MissingItemRange() }

func (b *testProviderBody) wrap(c *hcl.BodyContent) *hcl.BodyContent {
	if c == nil {
		return nil
	}
	out := &hcl.BodyContent{Attributes: b.wrapAttrs(c.Attributes), MissingItemRange: c.MissingItemRange}
	for _, blk := range c.Blocks {
		nb := *blk
		nb.Body = &testProviderBody{body: blk.Body, ctx: b.ctx}
		out.Blocks = append(out.Blocks, &nb)
	}
	return out
}

func (b *testProviderBody) wrapAttrs(attrs hcl.Attributes) hcl.Attributes {
	if attrs == nil {
		return nil
	}
	out := make(hcl.Attributes, len(attrs))
	for name, a := range attrs {
		na := *a
		na.Expr = &testExpr{expr: a.Expr, ctx: b.ctx}
		out[name] = &na
	}
	return out
}

// testExpr evaluates an expression of a test file in the file's context,
// whatever context its caller gives. It has no variables to its caller,
// which therefore looks nothing up for it.
type testExpr struct {
	expr hcl.Expression
	ctx  *hcl.EvalContext
}

func (e *testExpr) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.expr.Value(e.ctx)
	for _, d := range diags {
		d.Expression, d.EvalContext = nil, nil
	}
	return v, diags
}

func (e *testExpr) Variables() []hcl.Traversal { return nil }
func (e *testExpr) Range() hcl.Range           { return e.expr.Range() }
func (e *testExpr) StartRange() hcl.Range      { return e.expr.StartRange() }

// withOverriddenModules replaces, in cfg (a copy made by cloneTree, whose
// modules it changes), each module an override_module block targets by a
// module that declares the same variables and outputs and nothing else:
// its outputs are the values the block gives (null for the others), and
// nothing in it is planned. The run's blocks win over the file's.
func withOverriddenModules(cfg *config.Module, run *config.TestRun, file *config.TestFile) diag.Diagnostics {
	var ds diag.Diagnostics
	done := map[addrs.Module]bool{}
	for _, o := range append(append([]*config.Override(nil), run.Overrides...), file.Overrides...) {
		if o.Kind != config.OverrideModule {
			continue
		}
		path := o.Target.Module.Module()
		if done[path] {
			continue
		}
		done[path] = true
		parentPath, name := path.Parent()
		parent := cfg.Descendant(parentPath)
		var child *config.Module
		if parent != nil {
			child = parent.Children[name]
		}
		if child == nil {
			ds = ds.Append(diag.At(o.TargetRange, fmt.Sprintf("Module not found: %s", path),
				"Target points to an undefined module. Please, ensure module exists."))
			continue
		}
		for key := range o.Values {
			if child.Outputs[key] == nil {
				ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: fmt.Sprintf("Output not found: %s", key), Subject: o.TargetRange.Ptr(),
					Detail: "Specified output to override is not present in the module and will be ignored."})
			}
		}
		parent.Children[name] = stubModule(child, o.Values)
	}
	return ds
}

// stubModule returns a module with m's variables and outputs alone, each
// output the value values gives it (null when it gives none).
func stubModule(m *config.Module, values map[string]cty.Value) *config.Module {
	stub := *m
	stub.ManagedResources = map[addrs.Resource]*config.Resource{}
	stub.DataResources = map[addrs.Resource]*config.Resource{}
	stub.ModuleCalls = map[string]*config.ModuleCall{}
	stub.Children = map[string]*config.Module{}
	stub.Locals = map[string]*config.Local{}
	stub.ProviderConfigs = map[string]*config.Provider{}
	stub.Checks, stub.Moved, stub.Removed, stub.Imports = nil, nil, nil, nil
	stub.Outputs = make(map[string]*config.Output, len(m.Outputs))
	for name, o := range m.Outputs {
		no := *o
		v, ok := values[name]
		if !ok {
			v = cty.NullVal(cty.DynamicPseudoType)
		}
		no.Expr = hcl.StaticExpr(v, o.DeclRange)
		no.Preconditions, no.DependsOn = nil, nil
		stub.Outputs[name] = &no
	}
	return &stub
}
