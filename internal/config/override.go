package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
)

// mergeFile merges one override file's body into m, by OpenTofu's rules:
// each top-level block merges into the block of the same type and labels
// that the primary files declared (an argument replaces the argument of the
// same name, nested blocks replace every nested block of their type), and
// a block with nothing to merge into is an error, except a default
// (unaliased) provider configuration. The special cases are in the merge
// functions below.
func (m *Module) mergeFile(body hcl.Body) hcl.Diagnostics {
	content, diags := body.Content(configFileSchema)
	var tf fileTerraform
	for _, block := range content.Blocks {
		switch block.Type {
		case "terraform":
			tb, tDiags := decodeTerraformBlock(block)
			diags = append(diags, tDiags...)
			tf.add(tb)
		case "required_providers":
			diags = append(diags, topLevelRequiredProviders(block))
		case "action":
			diags = append(diags, m.mergeAction(block)...)
		case "language":
			_, lDiags := decodeLanguageBlock(block, true)
			diags = append(diags, lDiags...)
		case "provider":
			p, pDiags := decodeProviderBlock(block)
			diags = append(diags, pDiags...)
			if p != nil {
				diags = append(diags, m.mergeProvider(p)...)
			}
		case "variable":
			existing, ok := m.Variables[block.Labels[0]]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing base variable declaration to override",
					Detail:   fmt.Sprintf("There is no variable named %q. An override file can only override a variable that was already declared in a primary configuration file.", block.Labels[0]),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			diags = append(diags, existing.merge(block)...)
		case "locals":
			locals, lDiags := decodeLocalsBlock(block)
			diags = append(diags, lDiags...)
			sortLocals(locals)
			for _, l := range locals {
				existing, ok := m.Locals[l.Name]
				if !ok {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Missing base local value definition to override",
						Detail:   fmt.Sprintf("There is no local value named %q. An override file can only override a local value that was already defined in a primary configuration file.", l.Name),
						Subject:  l.DeclRange.Ptr(),
					})
					continue
				}
				// A local value is one expression: the override replaces
				// it, and diagnostics point at the override.
				existing.Expr, existing.DeclRange = l.Expr, l.DeclRange
			}
		case "output":
			o, oDiags := decodeOutputBlock(block, true)
			diags = append(diags, oDiags...)
			existing, ok := m.Outputs[o.Name]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing base output definition to override",
					Detail:   fmt.Sprintf("There is no output named %q. An override file can only override an output that was already defined in a primary configuration file.", o.Name),
					Subject:  o.DeclRange.Ptr(),
				})
				continue
			}
			diags = append(diags, existing.merge(o, presentArgs(block, outputBlockSchema))...)
		case "module":
			mc, mDiags := decodeModuleBlock(block, true)
			diags = append(diags, mDiags...)
			existing, ok := m.ModuleCalls[mc.Name]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing module call to override",
					Detail:   fmt.Sprintf("There is no module call named %q. An override file can only override a module call that was defined in a primary configuration file.", mc.Name),
					Subject:  mc.DeclRange.Ptr(),
				})
				continue
			}
			diags = append(diags, existing.merge(mc, presentArgs(block, moduleBlockSchema))...)
		case "resource", "data":
			mode, resources, missing := addrs.Managed, m.ManagedResources, "Missing resource to override"
			detail := "There is no %s resource named %q. An override file can only override a resource block defined in a primary configuration file."
			if block.Type == "data" {
				mode, resources, missing = addrs.Data, m.DataResources, "Missing data resource to override"
				detail = "There is no %s data resource named %q. An override file can only override a data block defined in a primary configuration file."
			}
			r, rDiags := decodeResourceBlock(block, mode, true)
			diags = append(diags, rDiags...)
			existing, ok := resources[r.Addr]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  missing,
					Detail:   fmt.Sprintf(detail, r.Addr.Type, r.Addr.Name),
					Subject:  r.DeclRange.Ptr(),
				})
				continue
			}
			diags = append(diags, existing.merge(r)...)
		case "moved":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override 'moved' blocks",
				Detail:   "Records of moved objects can appear only in normal files, not in override files.",
				Subject:  block.DefRange.Ptr(),
			})
		case "import":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override 'import' blocks",
				Detail:   "Import blocks can appear only in normal files, not in override files.",
				Subject:  block.DefRange.Ptr(),
			})
		case "removed":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override 'Removed' blocks",
				Detail:   "Removed blocks can appear only in normal files, not in override files.",
				Subject:  block.DefRange.Ptr(),
			})
		case "check":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Can't override check blocks",
				Detail:   "Override files cannot override check blocks.",
				Subject:  block.DefRange.Ptr(),
			})
		}
	}
	return append(diags, m.Terraform.merge(&tf)...)
}

// fileTerraform gathers what the terraform blocks of one override file set.
type fileTerraform struct {
	requiredVersion   []*VersionConstraint
	backends          []*Backend
	clouds            []*RawBlock
	encryptions       []*RawBlock
	requiredProviders []*requiredProvidersBlock
	providerMetas     []*ProviderMeta
}

func (f *fileTerraform) add(tb *terraformBlock) {
	if tb.requiredVersion != nil {
		f.requiredVersion = append(f.requiredVersion, tb.requiredVersion)
	}
	f.backends = append(f.backends, tb.backends...)
	f.clouds = append(f.clouds, tb.clouds...)
	f.encryptions = append(f.encryptions, tb.encryptions...)
	f.requiredProviders = append(f.requiredProviders, tb.requiredProviders...)
	f.providerMetas = append(f.providerMetas, tb.providerMetas...)
}

// merge applies an override file's terraform settings: its required_version
// arguments replace all others, each required_providers entry replaces the
// entry of the same name, and a backend or cloud block replaces whichever
// of the two the module had.
func (t *Terraform) merge(f *fileTerraform) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(f.requiredVersion) > 0 {
		t.RequiredVersion = append([]*VersionConstraint(nil), f.requiredVersion...)
	}
	for _, pm := range f.providerMetas {
		// An override file's provider_meta replaces the module's.
		t.ProviderMetas[pm.Provider] = pm
	}
	for _, rp := range f.requiredProviders {
		if t.RequiredProvidersDeclRange == nil {
			rng := rp.declRange
			t.RequiredProvidersDeclRange = &rng
		}
		for name, p := range rp.providers {
			t.RequiredProviders[name] = p
		}
	}
	switch len(f.backends) {
	case 0:
	case 1:
		t.Backend, t.Cloud = f.backends[0], nil
	default:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Duplicate backend configuration",
			Detail:   fmt.Sprintf("Each override file may have only one backend configuration. A backend was previously configured at %s.", f.backends[0].DeclRange),
			Subject:  f.backends[1].DeclRange.Ptr(),
		})
	}
	switch len(f.clouds) {
	case 0:
	case 1:
		t.Backend, t.Cloud = nil, f.clouds[0]
	default:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Duplicate cloud configurations",
			Detail:   fmt.Sprintf("A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at %s.", f.clouds[0].DeclRange),
			Subject:  f.clouds[1].DeclRange.Ptr(),
		})
	}
	switch len(f.encryptions) {
	case 0:
	case 1:
		e := f.encryptions[0]
		if t.Encryption != nil {
			e = &RawBlock{Type: e.Type, Body: overrideBodies(t.Encryption.Body, e.Body), DeclRange: t.Encryption.DeclRange}
		}
		t.Encryption = e
	default:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Duplicate encryption configuration",
			Detail:   fmt.Sprintf("Each override file may have only one encryption configuration. Encryption was previously configured at %s.", f.encryptions[0].DeclRange),
			Subject:  f.encryptions[1].DeclRange.Ptr(),
		})
	}
	return diags
}

// mergeProvider merges an override provider block. A default configuration
// may be overridden without a base, since an absent one means an empty one;
// an aliased configuration must exist, so that a misspelt alias is caught.
func (m *Module) mergeProvider(op *Provider) hcl.Diagnostics {
	existing, ok := m.ProviderConfigs[op.Key()]
	switch {
	case !ok && op.Alias == "":
		m.ProviderConfigs[op.Key()] = op
		return nil
	case !ok:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Missing base provider configuration for override",
			Detail:   fmt.Sprintf("There is no %s provider configuration with the alias %q. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", op.Name, op.Alias),
			Subject:  op.DeclRange.Ptr(),
		}}
	}
	if op.Version != "" {
		existing.Version = op.Version
	}
	if op.ForEach != nil {
		existing.ForEach = op.ForEach
	}
	existing.Config = overrideBodies(existing.Config, op.Config)
	return nil
}

// merge merges an override variable block into v: each argument it sets
// replaces v's, and the default must still convert to the type.
func (v *Variable) merge(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(variableBlockSchema)
	for _, b := range content.Blocks {
		diags = append(diags, overrideCheckRuleDiag(b))
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Sensitive)...)
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Nullable)...)
	}
	if attr, ok := content.Attributes["const"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Const)...)
		v.ConstSet = true
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		var msg string
		dDiags := gohcl.DecodeExpression(attr.Expr, nil, &msg)
		diags = append(diags, dDiags...)
		if !dDiags.HasErrors() && strings.TrimSpace(msg) != "" {
			v.Deprecated = msg
		}
	}
	_, typeSet := content.Attributes["type"]
	if typeSet {
		ty, defaults, tyDiags := decodeVariableType(content.Attributes["type"].Expr)
		diags = append(diags, tyDiags...)
		v.Type, v.TypeDefaults, v.ConcreteType = ty, defaults, ty.WithoutOptionalAttributesDeep()
		v.TypeGiven = true
	}
	defaultAttr, defaultSet := content.Attributes["default"]
	if defaultSet {
		val, valDiags := defaultAttr.Expr.Value(nil)
		diags = append(diags, valDiags...)
		if valDiags.HasErrors() {
			return diags
		}
		v.Default = val
	}
	if v.Default == cty.NilVal {
		return diags
	}

	val := v.Default
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.Type)
	if err != nil {
		detail := fmt.Sprintf("This variable's default value is not compatible with its type constraint: %s.", err)
		switch {
		case typeSet && !defaultSet:
			detail = fmt.Sprintf("Overriding this variable's type constraint has made its default value invalid: %s.", err)
		case defaultSet && !typeSet:
			detail = fmt.Sprintf("The overridden default value for this variable is not compatible with the variable's type constraint: %s.", err)
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   detail,
			Subject:  block.DefRange.Ptr(),
		})
		converted = cty.DynamicVal
	}
	v.Default = converted
	if !v.Nullable && v.Default.IsNull() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   "A null default value is not valid when nullable=false.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return diags
}

// merge merges an override output block into o; set holds the arguments
// the override block sets.
func (o *Output) merge(oo *Output, set map[string]bool) hcl.Diagnostics {
	if set["description"] {
		o.Description = oo.Description
	}
	if oo.Expr != nil {
		o.Expr = oo.Expr
	}
	if set["sensitive"] {
		o.Sensitive = oo.Sensitive
	}
	if oo.Deprecated != "" {
		o.Deprecated = oo.Deprecated
	}
	if set["type"] {
		o.Type, o.TypeDefaults = oo.Type, oo.TypeDefaults
	}
	return dependsOnOverride(oo.DependsOn)
}

// merge merges an override module block into mc; set holds the arguments
// the override block sets. As in OpenTofu, a count wins over a for_each
// whichever of the two blocks sets it.
func (mc *ModuleCall) merge(omc *ModuleCall, set map[string]bool) hcl.Diagnostics {
	if set["source"] || set["version"] {
		st := &callStatic{}
		if mc.static != nil {
			*st = callStatic{source: mc.static.source, version: mc.static.version}
		}
		if set["source"] {
			mc.Source, mc.SourceRange, st.source = omc.Source, omc.SourceRange, omc.SourceExpr()
		}
		if set["version"] {
			mc.Version, mc.VersionRange, st.version = omc.Version, omc.VersionRange, nil
			if omc.static != nil {
				st.version = omc.static.version
			}
		}
		mc.static = nil
		if st.source != nil || st.version != nil {
			mc.static = st
		}
	}
	mc.Count, mc.ForEach, mc.Enabled = overrideRepetition(mc.Count, mc.ForEach, mc.Enabled, omc.Count, omc.ForEach, omc.Enabled)
	if len(omc.Providers) > 0 {
		mc.Providers = omc.Providers
	}
	if set["ignore_nested_deprecations"] {
		mc.IgnoreNestedDeprecations = omc.IgnoreNestedDeprecations
	}
	mc.Config = overrideBodies(mc.Config, omc.Config)
	return dependsOnOverride(omc.DependsOn)
}

// merge merges an override resource or data block into r. The lifecycle
// block merges argument by argument; provisioner blocks replace all of r's,
// a connection block replaces r's. As in OpenTofu, a count wins over a
// for_each whichever of the two blocks sets it.
func (r *Resource) merge(or *Resource) hcl.Diagnostics {
	r.Count, r.ForEach, r.Enabled = overrideRepetition(r.Count, r.ForEach, r.Enabled, or.Count, or.ForEach, or.Enabled)
	if or.ProviderConfigRef != nil {
		r.ProviderConfigRef = or.ProviderConfigRef
	}
	if lc, olc := r.Managed, or.Managed; lc != nil && olc != nil {
		if olc.CreateBeforeDestroySet {
			lc.CreateBeforeDestroy, lc.CreateBeforeDestroySet, lc.CreateBeforeDestroyRange = olc.CreateBeforeDestroy, true, olc.CreateBeforeDestroyRange
		}
		if olc.PreventDestroy != nil {
			lc.PreventDestroy, lc.PreventDestroyRange = olc.PreventDestroy, olc.PreventDestroyRange
		}
		if olc.DestroySet {
			lc.Destroy, lc.DestroySet, lc.DestroyRange = olc.Destroy, true, olc.DestroyRange
		}
		if olc.IgnoreAllChanges || len(olc.IgnoreChanges) > 0 {
			lc.IgnoreAllChanges, lc.IgnoreChanges = olc.IgnoreAllChanges, olc.IgnoreChanges
		}
		if len(olc.ReplaceTriggeredBy) > 0 {
			lc.ReplaceTriggeredBy = olc.ReplaceTriggeredBy
		}
	}
	if len(or.Provisioners) > 0 {
		r.Provisioners = or.Provisioners
	}
	if or.Connection != nil {
		r.Connection = or.Connection
	}
	r.Config = overrideBodies(r.Config, or.Config)
	return dependsOnOverride(or.DependsOn)
}

// overrideRepetition returns the count, for_each and lifecycle.enabled of
// a block after an override: each replaces its own kind; then a count
// leaves no for_each or enabled, and a for_each no enabled (OpenTofu
// merges count and for_each so, and ignores an override's enabled).
func overrideRepetition(count, forEach, enabled, oCount, oForEach, oEnabled hcl.Expression) (hcl.Expression, hcl.Expression, hcl.Expression) {
	if oCount != nil {
		count = oCount
	}
	if oForEach != nil {
		forEach = oForEach
	}
	if oEnabled != nil {
		enabled = oEnabled
	}
	if count != nil {
		forEach = nil
	}
	if count != nil || forEach != nil {
		enabled = nil
	}
	return count, forEach, enabled
}

func dependsOnOverride(deps []hcl.Traversal) hcl.Diagnostics {
	if len(deps) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported override",
		Detail:   "The depends_on argument may not be overridden.",
		Subject:  deps[0].SourceRange().Ptr(),
	}}
}

// presentArgs returns the names of the arguments of schema that block sets.
func presentArgs(block *hcl.Block, schema *hcl.BodySchema) map[string]bool {
	content, _, _ := block.Body.PartialContent(relaxedSchema(schema))
	set := make(map[string]bool, len(content.Attributes))
	for name := range content.Attributes {
		set[name] = true
	}
	return set
}
