package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

// Resource is a "resource" or "data" block.
type Resource struct {
	Addr addrs.Resource
	// Config is the body minus meta-arguments and lifecycle, provisioner and
	// connection blocks, to be decoded against the provider's schema. It may
	// contain "dynamic" blocks (see lang.Scope.EvalBlock).
	Config hcl.Body
	// Count and ForEach are nil when absent; Enabled is lifecycle.enabled
	// (OpenTofu 1.11), nil when absent: zero or one instance, without a key.
	// At most one of the three is set in a valid module.
	Count, ForEach, Enabled hcl.Expression
	// DependsOn holds the depends_on entries as absolute traversals;
	// lang.CheckReferences checks what they refer to.
	DependsOn []hcl.Traversal
	// ProviderConfigRef is the `provider = NAME.ALIAS` argument, nil when absent.
	ProviderConfigRef *ProviderConfigRef
	// Managed is nil for data resources.
	Managed        *ManagedLifecycle
	Preconditions  []*CheckRule
	Postconditions []*CheckRule
	// Provisioners are in the order written; Connection is the resource's
	// own connection block, nil when absent. Always empty for data resources.
	Provisioners []*Provisioner
	Connection   *Connection
	// Check is the name of the check block a scoped data source is nested
	// in; "" for every other resource. Only that block's assertions may
	// refer to a scoped data source.
	Check     string
	DeclRange hcl.Range
	TypeRange hcl.Range
}

// ProviderConfigRef is the value of a resource's "provider" argument (or
// one side of a module call's providers map): NAME, NAME.ALIAS, or
// NAME.ALIAS[KEY] for one instance of a configuration with for_each.
type ProviderConfigRef struct {
	Name      string
	NameRange hcl.Range
	Alias     string
	// AliasRange is where the alias is written; nil without one.
	AliasRange *hcl.Range
	// KeyExpr is the instance key expression of NAME.ALIAS[KEY]; nil
	// without a key. A resource evaluates it per instance (with count.index
	// and each), a module call per call instance in the calling module.
	KeyExpr hcl.Expression
}

// String returns "name" or "name.alias".
func (r *ProviderConfigRef) String() string { return providerKey(r.Name, r.Alias) }

// Connection is a "connection" block.
type Connection struct {
	Config    hcl.Body
	DeclRange hcl.Range
}

// ProvisionerWhen says when a provisioner runs.
type ProvisionerWhen uint8

const (
	// ProvisionerWhenCreate runs after creation (the default).
	ProvisionerWhenCreate ProvisionerWhen = iota
	// ProvisionerWhenDestroy runs before destruction.
	ProvisionerWhenDestroy
)

// String returns the keyword as written in configuration.
func (w ProvisionerWhen) String() string {
	if w == ProvisionerWhenDestroy {
		return "destroy"
	}
	return "create"
}

// ProvisionerOnFailure says what a provisioner's failure does.
type ProvisionerOnFailure uint8

const (
	// ProvisionerOnFailureFail fails the resource (the default).
	ProvisionerOnFailureFail ProvisionerOnFailure = iota
	// ProvisionerOnFailureContinue ignores the failure.
	ProvisionerOnFailureContinue
)

// String returns the keyword as written in configuration.
func (f ProvisionerOnFailure) String() string {
	if f == ProvisionerOnFailureContinue {
		return "continue"
	}
	return "fail"
}

// Provisioner is a `provisioner "TYPE"` block.
type Provisioner struct {
	Type       string
	Config     hcl.Body
	Connection *Connection
	When       ProvisionerWhen
	OnFailure  ProvisionerOnFailure
	DeclRange  hcl.Range
	TypeRange  hcl.Range
}

const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

var resourceBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"}, // reserved
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "_"}, // meta-argument escaping block
	},
}

var dataBlockSchema = &hcl.BodySchema{
	Attributes: resourceBlockSchema.Attributes,
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "locals"}, // reserved
		{Type: "_"},
	},
}

// ephemeralBlockSchema is dataBlockSchema with the connection and
// provisioner blocks, which an ephemeral block may not have: decoded only
// to report them as OpenTofu does.
var ephemeralBlockSchema = &hcl.BodySchema{
	Attributes: resourceBlockSchema.Attributes,
	Blocks: append(slices.Clip(dataBlockSchema.Blocks),
		hcl.BlockHeaderSchema{Type: "connection"},
		hcl.BlockHeaderSchema{Type: "provisioner", LabelNames: []string{"type"}}),
}

var provisionerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "connection"},
		{Type: "lifecycle"}, // reserved
		{Type: "_"},
	},
}

// decodeResourceBlock decodes a resource or data block; override is set for
// a block of an override file, whose condition blocks are errors.
func decodeResourceBlock(block *hcl.Block, mode addrs.ResourceMode, override bool) (*Resource, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	r := &Resource{
		Addr:      addrs.Resource{Mode: mode, Type: block.Labels[0], Name: block.Labels[1]},
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
	}
	schema := resourceBlockSchema
	what, typeSummary, nameSummary := "resource", "Invalid resource type name", "Invalid resource name"
	switch mode {
	case addrs.Data:
		schema = dataBlockSchema
		what, typeSummary, nameSummary = "data", "Invalid data source name", "Invalid data resource name"
	case addrs.Ephemeral:
		schema = ephemeralBlockSchema
		what, typeSummary, nameSummary = "ephemeral", "Invalid ephemeral resource type name", "Invalid ephemeral resource name"
	default:
		r.Managed = &ManagedLifecycle{}
	}

	content, remain, moreDiags := block.Body.PartialContent(schema)
	diags = append(diags, moreDiags...)
	r.Config = remain

	if !hclsyntax.ValidIdentifier(r.Addr.Type) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: typeSummary, Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	if !hclsyntax.ValidIdentifier(r.Addr.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: nameSummary, Detail: badIdentifierDetail, Subject: block.LabelRanges[1].Ptr()})
	}

	var countName, forEachName, enabledName hcl.Range
	if attr, ok := content.Attributes["count"]; ok {
		r.Count, countName = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		r.ForEach, forEachName = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, refDiags...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOn(attr)
		diags = append(diags, depsDiags...)
		r.DependsOn = deps
	}

	var seenLifecycle, seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate lifecycle block",
					Detail:   fmt.Sprintf("This resource already has a lifecycle block at %s.", seenLifecycle.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			seenLifecycle = b
			diags = append(diags, r.decodeLifecycle(b, override, &enabledName)...)
		case "connection", "provisioner":
			if mode == addrs.Ephemeral {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid configuration block for ephemeral resource",
					Detail:   fmt.Sprintf("An ephemeral resource cannot have a %q block: it belongs in \"resource\" blocks only.", b.Type),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			if b.Type == "provisioner" {
				p, pDiags := decodeProvisionerBlock(b)
				diags = append(diags, pDiags...)
				if p != nil {
					r.Provisioners = append(r.Provisioners, p)
				}
				continue
			}
			if seenConnection != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   fmt.Sprintf("This resource already has a connection block at %s.", seenConnection.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			seenConnection = b
			r.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		case "_":
			if seenEscape != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate escaping block",
					Detail: fmt.Sprintf("The special block type \"_\" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each %s block can have only one such block. The first escaping block was at %s.",
						what, seenEscape.DefRange),
					Subject: b.DefRange.Ptr(),
				})
				continue
			}
			seenEscape = b
			r.Config = hcl.MergeBodies([]hcl.Body{r.Config, b.Body})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Reserved block type name in %s block", what),
				Detail:   fmt.Sprintf("The block type name %q is reserved for future use by the language.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	if r.Connection != nil && slices.ContainsFunc(r.Provisioners, func(p *Provisioner) bool { return p.When == ProvisionerWhenDestroy }) {
		// A destroy-time provisioner uses the resource's connection block
		// too, so the same references are refused there, as in OpenTofu.
		diags = append(diags, onlySelfRefs(r.Connection.Config)...)
	}
	objects := "resources"
	switch mode {
	case addrs.Data:
		objects = "data sources"
	case addrs.Ephemeral:
		objects = "ephemeral resources"
	}
	if d := repetitionConflict(countName, forEachName, enabledName, objects); d != nil {
		diags = append(diags, d)
	}
	return r, diags
}

func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	var out []hcl.Traversal
	exprs, diags := hcl.ExprList(attr.Expr)
	for _, expr := range exprs {
		expr, shimDiags := shimTraversalInString(expr, false)
		diags = append(diags, shimDiags...)
		trav, travDiags := hcl.AbsTraversalForExpr(expr)
		diags = append(diags, travDiags...)
		if len(trav) != 0 {
			out = append(out, trav)
		}
	}
	return out, diags
}

func invalidProviderReferenceDiag(argName string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration reference",
		Detail:   fmt.Sprintf("The %s argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key.", argName),
		Subject:  rng.Ptr(),
	}
}

// decodeProviderConfigRef decodes a reference to a provider configuration:
// NAME, NAME.ALIAS, NAME["ALIAS"], or an instance of a configuration with
// for_each, NAME.ALIAS[KEY] where KEY is any expression (evaluated later,
// in the scope of the resource instance or module call instance).
func decodeProviderConfigRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if hcljson.IsJSONExpression(expr) {
		// JSON gives the reference as a string in native syntax.
		if v, vDiags := expr.Value(nil); !vDiags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
			rng := expr.Range()
			parsed, pDiags := hclsyntax.ParseExpression([]byte(v.AsString()), rng.Filename, rng.Start)
			if pDiags.HasErrors() {
				return nil, append(diags, invalidProviderReferenceDiag(argName, rng))
			}
			expr = parsed
		}
	}
	var keyExpr hcl.Expression
	if ocke, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		expr = ocke.Wrapped
	}
	if iex, ok := expr.(*hclsyntax.IndexExpr); ok {
		keyExpr, expr = iex.Key, iex.Collection
	}
	quoted := exprIsNativeQuotedString(expr)
	expr, shimDiags := shimTraversalInString(expr, false)
	trav, travDiags := hcl.AbsTraversalForExpr(expr)
	if !travDiags.HasErrors() {
		diags = append(diags, shimDiags...)
	}
	maxLen := 3
	if keyExpr != nil {
		maxLen = 2
	}
	if travDiags.HasErrors() || len(trav) < 1 || len(trav) > maxLen {
		if quoted {
			return nil, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration reference",
				Detail:   "A provider configuration reference must not be given in quotes.",
				Subject:  expr.Range().Ptr(),
			})
		}
		return nil, append(diags, invalidProviderReferenceDiag(argName, expr.Range()))
	}
	name := trav.RootName()
	if nameDiags := checkProviderNameNormalized(name, trav[0].SourceRange()); nameDiags.HasErrors() {
		return nil, append(diags, nameDiags...)
	}
	ref := &ProviderConfigRef{Name: name, NameRange: trav[0].SourceRange(), KeyExpr: keyExpr}
	if len(trav) > 1 {
		switch step := trav[1].(type) {
		case hcl.TraverseAttr:
			ref.Alias = step.Name
		case hcl.TraverseIndex:
			if len(trav) > 2 || keyExpr != nil {
				return ref, append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider configuration reference",
					Detail:   "Provider name must either stand alone or be followed by a period and then a configuration alias.",
					Subject:  trav[1].SourceRange().Ptr(),
				})
			}
			if !step.Key.Type().Equals(cty.String) || step.Key.IsNull() {
				return ref, append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider configuration reference",
					Detail:   "It is only allowed to reference provider by it alias, which must be a string.",
					Subject:  trav[1].SourceRange().Ptr(),
				})
			}
			ref.Alias = step.Key.AsString()
		default:
			return ref, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration reference",
				Detail:   "Provider name must either stand alone or be followed by a period and then a configuration alias.",
				Subject:  trav[1].SourceRange().Ptr(),
			})
		}
		ref.AliasRange = trav[1].SourceRange().Ptr()
	}
	if len(trav) > 2 {
		step, ok := trav[2].(hcl.TraverseIndex)
		if !ok {
			return ref, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration reference",
				Detail:   "Provider name must either stand alone or be followed by a period and then a configuration alias.",
				Subject:  trav[2].SourceRange().Ptr(),
			})
		}
		ref.KeyExpr = hcl.StaticExpr(step.Key, trav.SourceRange())
	}
	if ref.Alias == "" && ref.KeyExpr != nil {
		return ref, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider configuration reference",
			Detail:   "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
			Subject:  hcl.RangeBetween(trav.SourceRange(), ref.KeyExpr.Range()).Ptr(),
		})
	}
	return ref, diags
}

func decodeProvisionerBlock(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	p := &Provisioner{Type: block.Labels[0], DeclRange: block.DefRange, TypeRange: block.LabelRanges[0]}
	switch p.Type {
	case "chef", "habitat", "puppet", "salt-masterless":
		// Removed from Terraform 0.15 and OpenTofu: refused as they refuse them.
		return p, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("The %q provisioner has been removed", p.Type),
			Detail:   fmt.Sprintf("The %q provisioner is deprecated and has been removed from OpenTofu.", p.Type),
			Subject:  p.TypeRange.Ptr(),
		}}
	}
	content, remain, diags := block.Body.PartialContent(provisionerBlockSchema)
	p.Config = remain

	if attr, ok := content.Attributes["when"]; ok {
		expr, shimDiags := shimTraversalInString(attr.Expr, true)
		diags = append(diags, shimDiags...)
		switch hcl.ExprAsKeyword(expr) {
		case "create":
			p.When = ProvisionerWhenCreate
		case "destroy":
			p.When = ProvisionerWhenDestroy
			diags = append(diags, onlySelfRefs(remain)...)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "when" keyword`,
				Detail:   `The "when" argument requires one of the following keywords: create or destroy.`,
				Subject:  expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		expr, shimDiags := shimTraversalInString(attr.Expr, true)
		diags = append(diags, shimDiags...)
		switch hcl.ExprAsKeyword(expr) {
		case "continue":
			p.OnFailure = ProvisionerOnFailureContinue
		case "fail":
			p.OnFailure = ProvisionerOnFailureFail
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "on_failure" keyword`,
				Detail:   `The "on_failure" argument requires one of the following keywords: continue or fail.`,
				Subject:  expr.Range().Ptr(),
			})
		}
	}

	var seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "connection":
			if seenConnection != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   fmt.Sprintf("This provisioner already has a connection block at %s.", seenConnection.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			seenConnection = b
			if p.When == ProvisionerWhenDestroy {
				diags = append(diags, onlySelfRefs(b.Body)...)
			}
			p.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		case "_":
			if seenEscape != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate escaping block",
					Detail: fmt.Sprintf("The special block type \"_\" can be used to force particular arguments to be interpreted as provisioner-type-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at %s.",
						seenEscape.DefRange),
					Subject: b.DefRange.Ptr(),
				})
				continue
			}
			seenEscape = b
			if p.When == ProvisionerWhenDestroy {
				diags = append(diags, onlySelfRefs(b.Body)...)
			}
			p.Config = hcl.MergeBodies([]hcl.Body{p.Config, b.Body})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in provisioner block",
				Detail:   fmt.Sprintf("The block type name %q is reserved for future use by the language.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	return p, diags
}

var checkRuleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// overrideCheckRuleDiag reports a validation, precondition or postcondition
// block in an override file, which cannot override them.
func overrideCheckRuleDiag(block *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Can't override %s blocks", block.Type),
		Detail:   fmt.Sprintf("Override files cannot override %q blocks.", block.Type),
		Subject:  block.DefRange.Ptr(),
	}
}

// decodeCheckRuleBlock decodes a validation, precondition or postcondition
// block; the result is never nil.
func decodeCheckRuleBlock(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	cr := &CheckRule{DeclRange: block.DefRange}
	content, diags := block.Body.Content(checkRuleBlockSchema)
	if attr, ok := content.Attributes["condition"]; ok {
		cr.Condition = attr.Expr
		if len(attr.Expr.Variables()) == 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %s expression", block.Type),
				Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		cr.ErrorMessage = attr.Expr
	}
	return cr, diags
}

// onlySelfRefs reports every reference in body's arguments that a
// destroy-time provisioner may not make: anything but self, count.index,
// each.key, path and terraform. Such a provisioner runs when the rest of the
// configuration may be gone.
func onlySelfRefs(body hcl.Body) hcl.Diagnostics {
	var diags hcl.Diagnostics
	attrs, _ := body.JustAttributes()
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return attrs[a].Range.Start.Byte - attrs[b].Range.Start.Byte })
	for _, name := range names {
		attr := attrs[name]
		for _, v := range attr.Expr.Variables() {
			if destroyTimeReference(v) {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference from destroy provisioner",
				Detail: "Destroy-time provisioners and their connection configurations may only " +
					"reference attributes of the related resource, via 'self', 'count.index', " +
					"or 'each.key'.\n\nReferences to other resources during the destroy phase " +
					"can cause dependency cycles and interact poorly with create_before_destroy.",
				Subject: attr.Expr.Range().Ptr(),
			})
		}
	}
	return diags
}

// destroyTimeReference reports whether a destroy-time provisioner may make
// reference v.
func destroyTimeReference(v hcl.Traversal) bool {
	attrIs := func(name string) bool {
		if len(v) != 2 {
			return false
		}
		t, ok := v[1].(hcl.TraverseAttr)
		return ok && t.Name == name
	}
	switch v.RootName() {
	case "self", "path", "terraform", "tofu":
		return true
	case "count":
		return attrIs("index")
	case "each":
		return attrIs("key")
	}
	return false
}
