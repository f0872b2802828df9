package config

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"}, {Name: "experiments"}, {Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "required_providers"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

// terraformBlock is what one "terraform" block contributes to the module.
type terraformBlock struct {
	declRange         hcl.Range
	requiredVersion   *VersionConstraint
	backends          []*Backend
	clouds            []*RawBlock
	encryptions       []*RawBlock
	requiredProviders []*requiredProvidersBlock
	providerMetas     []*ProviderMeta
}

type requiredProvidersBlock struct {
	providers map[string]*RequiredProvider
	declRange hcl.Range
}

func decodeTerraformBlock(block *hcl.Block) (*terraformBlock, hcl.Diagnostics) {
	tb := &terraformBlock{declRange: block.DefRange}
	content, diags := block.Body.Content(terraformBlockSchema)

	if attr, ok := content.Attributes["required_version"]; ok {
		s, vDiags := decodeVersionConstraint(attr)
		diags = append(diags, vDiags...)
		if !vDiags.HasErrors() {
			tb.requiredVersion = &VersionConstraint{Constraint: s, DeclRange: attr.Range}
		}
	}
	// language and experiments describe the Terraform language: OpenTofu
	// 1.12 ignores them (its own are in a language block), and so does rig.
	for _, b := range content.Blocks {
		switch b.Type {
		case "backend":
			tb.backends = append(tb.backends, &Backend{Type: b.Labels[0], Config: b.Body, TypeRange: b.LabelRanges[0], DeclRange: b.DefRange})
		case "cloud":
			tb.clouds = append(tb.clouds, &RawBlock{Type: b.Type, Body: b.Body, DeclRange: b.DefRange})
		case "encryption":
			tb.encryptions = append(tb.encryptions, &RawBlock{Type: b.Type, Body: b.Body, DeclRange: b.DefRange})
		case "required_providers":
			rp, rpDiags := decodeRequiredProvidersBlock(b)
			diags = append(diags, rpDiags...)
			tb.requiredProviders = append(tb.requiredProviders, rp)
		case "provider_meta":
			pm, pmDiags := decodeProviderMetaBlock(b)
			diags = append(diags, pmDiags...)
			if pm != nil {
				tb.providerMetas = append(tb.providerMetas, pm)
			}
		}
	}
	return tb, diags
}

func decodeRequiredProvidersBlock(block *hcl.Block) (*requiredProvidersBlock, hcl.Diagnostics) {
	ret := &requiredProvidersBlock{providers: map[string]*RequiredProvider{}, declRange: block.DefRange}
	attrs, diags := block.Body.JustAttributes()
	if diags.HasErrors() {
		return ret, diags
	}
	for _, name := range sortedAttrNames(attrs) {
		attr := attrs[name]
		rp := &RequiredProvider{Name: name, DeclRange: attr.Expr.Range()}

		// The legacy form: a version constraint string alone.
		if v, vDiags := attr.Expr.Value(nil); !vDiags.HasErrors() && v.Type().IsPrimitiveType() {
			version, cDiags := decodeVersionConstraint(attr)
			diags = append(diags, cDiags...)
			if msg := providerPartError(name); msg != "" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider name", Detail: msg, Subject: attr.Expr.Range().Ptr()})
				continue
			}
			rp.Version = version
			rp.Provider = impliedProvider(name)
			ret.providers[name] = rp
			continue
		}

		if nameDiags := checkProviderNameNormalized(name, attr.Expr.Range()); nameDiags.HasErrors() {
			diags = append(diags, nameDiags...)
			continue
		}
		kvs, mapDiags := hcl.ExprMap(attr.Expr)
		if mapDiags.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_providers object",
				Detail:   "required_providers entries must be strings or objects.",
				Subject:  attr.Expr.Range().Ptr(),
			})
			continue
		}
		entryOK := true
	kvLoop:
		for _, kv := range kvs {
			key, keyDiags := kv.Key.Value(nil)
			if keyDiags.HasErrors() || key.Type() != cty.String || key.IsNull() {
				diags = append(diags, keyDiags...)
				entryOK = false
				continue
			}
			switch key.AsString() {
			case "version":
				v, vDiags := kv.Value.Value(nil)
				if vDiags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid version constraint", Detail: "Version must be specified as a string.", Subject: kv.Value.Range().Ptr()})
					entryOK = false
					continue
				}
				if !validVersionConstraint(v.AsString()) {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid version constraint", Detail: "This string does not use correct version constraint syntax.", Subject: kv.Value.Range().Ptr()})
					entryOK = false
					continue
				}
				rp.Version = v.AsString()
			case "source":
				v, vDiags := kv.Value.Value(nil)
				if vDiags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid source", Detail: "Source must be specified as a string.", Subject: kv.Value.Range().Ptr()})
					entryOK = false
					continue
				}
				p, err := addrs.ParseProviderSource(v.AsString())
				if err != nil {
					summary, detail := "Invalid provider source string", err.Error()+"."
					var pe *addrs.ProviderSourceError
					if errors.As(err, &pe) {
						summary, detail = pe.Summary, pe.Detail
					}
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: kv.Value.Range().Ptr()})
					entryOK = false
					continue
				}
				rp.Source, rp.Provider = v.AsString(), p
			case "configuration_aliases":
				exprs, listDiags := hcl.ExprList(kv.Value)
				diags = append(diags, listDiags...)
				for _, e := range exprs {
					trav, tDiags := hcl.AbsTraversalForExpr(e)
					if tDiags.HasErrors() {
						diags = append(diags, tDiags...)
						continue
					}
					alias, ok := "", len(trav) == 2
					if ok {
						step, isAttr := trav[1].(hcl.TraverseAttr)
						ok, alias = isAttr, step.Name
					}
					if !ok {
						diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid configuration_aliases value", Detail: `Configuration aliases can only contain references to local provider configuration names in the format of provider.alias`, Subject: kv.Value.Range().Ptr()})
						continue
					}
					if trav.RootName() != name {
						diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid configuration_aliases value", Detail: fmt.Sprintf(`Configuration aliases must be prefixed with the provider name. Expected %q, but found %q.`, name, trav.RootName()), Subject: kv.Value.Range().Ptr()})
						continue
					}
					rp.ConfigurationAliases = append(rp.ConfigurationAliases, name+"."+alias)
				}
			default:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_providers object",
					Detail:   `required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.`,
					Subject:  kv.Key.Range().Ptr(),
				})
				entryOK = false
				break kvLoop
			}
		}
		if !entryOK {
			continue
		}
		if rp.Provider.IsZero() {
			if msg := providerPartError(name); msg != "" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider name", Detail: msg, Subject: attr.Expr.Range().Ptr()})
				continue
			}
			rp.Provider = impliedProvider(name)
		}
		ret.providers[name] = rp
	}
	return ret, diags
}

// impliedProvider is the provider a local name means without a source.
func impliedProvider(name string) addrs.Provider {
	if name == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	return addrs.NewDefaultProvider(name)
}

var providerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"}, {Name: "version"}, {Name: "for_each"},
		// Reserved for future use.
		{Name: "count"}, {Name: "depends_on"}, {Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		// Reserved for future use.
		{Type: "lifecycle"}, {Type: "locals"},
	},
}

// ProviderVersionDeprecated is the summary of the warning about a version
// constraint in a provider block.
const ProviderVersionDeprecated = "Version constraints inside provider configuration blocks are deprecated"

func decodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	content, remain, diags := block.Body.PartialContent(providerBlockSchema)
	name := block.Labels[0]
	if nameDiags := checkProviderNameNormalized(name, block.DefRange); nameDiags.HasErrors() {
		return nil, append(diags, nameDiags...)
	}
	p := &Provider{Name: name, NameRange: block.LabelRanges[0], Config: remain, DeclRange: block.DefRange}

	if attr, ok := content.Attributes["alias"]; ok {
		aDiags := gohcl.DecodeExpression(attr.Expr, nil, &p.Alias)
		diags = append(diags, aDiags...)
		p.AliasRange = attr.Expr.Range().Ptr()
		if !aDiags.HasErrors() && !hclsyntax.ValidIdentifier(p.Alias) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration alias",
				Detail:   "An alias must be a valid name. " + badIdentifierDetail,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  ProviderVersionDeprecated,
			Detail:   "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.",
			Subject:  attr.Expr.Range().Ptr(),
		})
		v, vDiags := decodeVersionConstraint(attr)
		diags = append(diags, vDiags...)
		p.Version = v
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		p.ForEach = attr.Expr
		if p.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Alias required when using "for_each"`,
				Detail:   `The for_each argument is allowed only for provider configurations with an alias.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	for _, reserved := range []string{"count", "depends_on", "source"} {
		if attr, ok := content.Attributes[reserved]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved argument name in provider block",
				Detail:   fmt.Sprintf("The provider argument name %q is reserved for future use by the language.", reserved),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	var seenEscape *hcl.Block
	for _, b := range content.Blocks {
		if b.Type == "_" {
			if seenEscape != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate escaping block",
					Detail: fmt.Sprintf("The special block type \"_\" can be used to force particular arguments to be interpreted as provider-specific rather than as meta-arguments, but each provider block can have only one such block. The first escaping block was at %s.",
						seenEscape.DefRange),
					Subject: b.DefRange.Ptr(),
				})
				continue
			}
			seenEscape = b
			p.Config = hcl.MergeBodies([]hcl.Body{p.Config, b.Body})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in provider block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for future use by the language.", b.Type),
			Subject:  b.TypeRange.Ptr(),
		})
	}
	return p, diags
}

var moduleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true}, {Name: "version"}, {Name: "count"},
		{Name: "for_each"}, {Name: "depends_on"}, {Name: "providers"},
		{Name: "ignore_nested_deprecations"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"}, {Type: "lifecycle"},
		// Reserved for future use.
		{Type: "locals"}, {Type: "provider", LabelNames: []string{"type"}},
	},
}

// moduleLifecycleSchema is a module block's lifecycle block: enabled only.
var moduleLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}

// decodeModuleBlock decodes a module block; override is set for a block of
// an override file, which need not set source.
func decodeModuleBlock(block *hcl.Block, override bool) (*ModuleCall, hcl.Diagnostics) {
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange}
	schema := moduleBlockSchema
	if override {
		schema = relaxedSchema(schema)
	}
	content, remain, diags := block.Body.PartialContent(schema)
	mc.Config = callArgumentsBody(remain, schema)

	if !hclsyntax.ValidIdentifier(mc.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid module instance name", Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	if attr, ok := content.Attributes["source"]; ok {
		mc.SourceRange = attr.Expr.Range()
		if needsStatic(attr.Expr) {
			mc.static = &callStatic{source: attr.Expr}
		} else {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &mc.Source)...)
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		mc.VersionRange = attr.Expr.Range().Ptr()
		if needsStatic(attr.Expr) {
			if mc.static == nil {
				mc.static = &callStatic{}
			}
			mc.static.version = attr.Expr
		} else {
			v, vDiags := decodeVersionConstraint(attr)
			diags = append(diags, vDiags...)
			mc.Version = v
		}
	}
	var countName, forEachName, enabledName hcl.Range
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count, countName = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["providers"]; ok {
		passed, pDiags := decodePassedProviders(attr)
		diags = append(diags, pDiags...)
		mc.Providers = passed
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mc.ForEach, forEachName = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOn(attr)
		diags = append(diags, depsDiags...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["ignore_nested_deprecations"]; ok {
		diags = append(diags, decodeIgnoreNestedDeprecations(attr, &mc.IgnoreNestedDeprecations)...)
	}
	var seenLifecycle *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "_":
			mc.Config = hcl.MergeBodies([]hcl.Body{mc.Config, b.Body})
			continue
		case "lifecycle":
			if seenLifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate lifecycle block",
					Detail:   fmt.Sprintf("This module call already has a lifecycle block at %s.", seenLifecycle.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			seenLifecycle = b
			lc, more := b.Body.Content(moduleLifecycleSchema)
			diags = append(diags, more...)
			if attr, ok := lc.Attributes["enabled"]; ok {
				mc.Enabled, enabledName = attr.Expr, attr.NameRange
			}
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in module block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for future use by the language.", b.Type),
			Subject:  b.TypeRange.Ptr(),
		})
	}
	if d := repetitionConflict(countName, forEachName, enabledName, "module instances"); d != nil {
		diags = append(diags, d)
	}
	return mc, diags
}

// decodeIgnoreNestedDeprecations decodes a module call's
// ignore_nested_deprecations (Terraform 1.15): a static bool, with
// Terraform's diagnostics.
func decodeIgnoreNestedDeprecations(attr *hcl.Attribute, into *bool) hcl.Diagnostics {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for ignore_nested_deprecations",
			Detail:   "The value for ignore_nested_deprecations must be a static boolean (true or false).",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	if v.Type() != cty.Bool || v.IsNull() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid type for ignore_nested_deprecations",
			Detail:   fmt.Sprintf("The value for ignore_nested_deprecations must be a boolean (true or false), but the given value has type %s.", v.Type().FriendlyName()),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	*into = v.True()
	return nil
}

// callArgumentsBody returns the body of a module call's arguments (the
// called module's variables) without its meta-arguments and their blocks
// (lifecycle, _): hclsyntax's JustAttributes reports every block of a body,
// even those PartialContent took, and the arguments are read with it.
func callArgumentsBody(remain hcl.Body, meta *hcl.BodySchema) hcl.Body {
	sb, ok := remain.(*hclsyntax.Body)
	if !ok {
		return remain
	}
	hidden := map[string]bool{}
	for _, b := range meta.Blocks {
		hidden[b.Type] = true
	}
	var blocks hclsyntax.Blocks
	for _, b := range sb.Blocks {
		if !hidden[b.Type] {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == len(sb.Blocks) {
		return remain
	}
	metaArgs := map[string]bool{}
	for _, a := range meta.Attributes {
		metaArgs[a.Name] = true
	}
	attrs := make(hclsyntax.Attributes, len(sb.Attributes))
	for name, a := range sb.Attributes {
		if !metaArgs[name] {
			attrs[name] = a
		}
	}
	return &hclsyntax.Body{Attributes: attrs, Blocks: blocks, SrcRange: sb.SrcRange, EndRange: sb.EndRange}
}

// decodePassedProviders decodes a module call's providers argument, a map
// of child configuration names to the caller's: { aws = aws.west }.
func decodePassedProviders(attr *hcl.Attribute) ([]PassedProvider, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []PassedProvider
	seen := map[string]hcl.Range{}
	for _, pair := range pairs {
		child, cDiags := decodeProviderConfigRef(pair.Key, "providers")
		diags = append(diags, cDiags...)
		parent, pDiags := decodeProviderConfigRef(pair.Value, "providers")
		diags = append(diags, pDiags...)
		if child == nil || parent == nil {
			continue
		}
		rng := hcl.RangeBetween(pair.Key.Range(), pair.Value.Range())
		if prev, dup := seen[child.String()]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider address",
				Detail:   fmt.Sprintf("The provider configuration %s was already passed at %s. Each child provider configuration can be assigned only once.", child, prev),
				Subject:  rng.Ptr(),
			})
			continue
		}
		seen[child.String()] = rng
		out = append(out, PassedProvider{InChild: *child, InParent: *parent, Range: rng})
	}
	return out, diags
}

// decodeProviderMetaBlock decodes a provider_meta block: arguments whose
// values must be constants, for the provider the label names.
func decodeProviderMetaBlock(block *hcl.Block) (*ProviderMeta, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	if diags.HasErrors() {
		return nil, diags
	}
	for _, name := range sortedAttrNames(attrs) {
		_, more := attrs[name].Expr.Value(nil)
		diags = append(diags, more...)
	}
	if diags = append(diags, checkProviderNameNormalized(block.Labels[0], block.DefRange)...); diags.HasErrors() {
		return nil, diags
	}
	return &ProviderMeta{Provider: block.Labels[0], ProviderRange: block.LabelRanges[0], Config: block.Body, DeclRange: block.DefRange}, diags
}
