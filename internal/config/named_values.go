package config

import (
	"fmt"
	"github.com/rig-iac/rig/internal/diag"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"}, {Name: "default"}, {Name: "type"},
		{Name: "sensitive"}, {Name: "nullable"}, {Name: "deprecated"}, {Name: "ephemeral"},
		{Name: "const"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var outputBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"}, {Name: "value", Required: true}, {Name: "depends_on"},
		{Name: "sensitive"}, {Name: "deprecated"}, {Name: "type"}, {Name: "ephemeral"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

// reservedVariableNames are the argument and block names of module blocks,
// which a variable cannot use since a caller could not set it.
var reservedVariableNames = []string{
	"source", "version", "count", "for_each", "depends_on", "providers",
	"_", "lifecycle", "locals", "provider",
}

func decodeVariableBlock(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name:         block.Labels[0],
		Type:         cty.DynamicPseudoType,
		ConcreteType: cty.DynamicPseudoType,
		Nullable:     true,
		DeclRange:    block.DefRange,
	}
	content, diags := block.Body.Content(variableBlockSchema)

	if !hclsyntax.ValidIdentifier(v.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid variable name", Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	for _, reserved := range reservedVariableNames {
		if v.Name == reserved {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable name",
				Detail:   fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", reserved),
				Subject:  block.LabelRanges[0].Ptr(),
			})
		}
	}

	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, tyDiags := decodeVariableType(attr.Expr)
		diags = append(diags, tyDiags...)
		v.Type, v.TypeDefaults = ty, defaults
		v.ConcreteType = ty.WithoutOptionalAttributesDeep()
		v.TypeGiven = true
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Ephemeral)...)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		dDiags := gohcl.DecodeExpression(attr.Expr, nil, &v.Deprecated)
		diags = append(diags, dDiags...)
		if !dDiags.HasErrors() && strings.TrimSpace(v.Deprecated) == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid `deprecated` value",
				Detail:   `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`,
				Subject:  block.LabelRanges[0].Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Nullable)...)
	}
	if attr, ok := content.Attributes["const"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Const)...)
		v.ConstSet = true
	}
	if attr, ok := content.Attributes["default"]; ok {
		val, valDiags := attr.Expr.Value(nil)
		diags = append(diags, valDiags...)
		if v.TypeDefaults != nil && !val.IsNull() {
			val = v.TypeDefaults.Apply(val)
		}
		converted, err := convert.Convert(val, v.Type)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for variable",
				Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", formatConvertError(err)),
				Subject:  attr.Expr.Range().Ptr(),
			})
			converted = cty.DynamicVal
		}
		diags = append(diags, ignoredDefaultAttributes(attr.Expr, v.Type)...)
		if !v.Nullable && converted.IsNull() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for variable",
				Detail:   "A null default value is not valid when nullable=false.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
		v.Default = converted
	}

	for _, b := range content.Blocks {
		cr, crDiags := decodeCheckRuleBlock(b)
		diags = append(diags, crDiags...)
		diags = append(diags, validationReferences(cr, v.Name)...)
		v.Validations = append(v.Validations, cr)
	}
	return v, diags
}

// formatConvertError words a cty conversion error like OpenTofu's
// tfdiags.FormatError: a path prefix when the error is about a nested value.
func formatConvertError(err error) string {
	if perr, ok := err.(cty.PathError); ok && len(perr.Path) > 0 {
		return fmt.Sprintf("%s: %s", diag.FormatPath(perr.Path), perr.Error())
	}
	return err.Error()
}

func decodeVariableType(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, hcl.Diagnostics) {
	if exprIsNativeQuotedString(expr) {
		val, diags := expr.Value(nil)
		if diags.HasErrors() {
			return cty.DynamicPseudoType, nil, diags
		}
		str := val.AsString()
		switch str {
		case "string", "list", "map":
			hint := ""
			if str != "string" {
				hint = fmt.Sprintf(" and write %s(string) instead to explicitly indicate that the %s elements are strings", str, str)
			}
			return cty.DynamicPseudoType, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid quoted type constraints",
				Detail:   fmt.Sprintf("OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around %q%s.", str, hint),
				Subject:  expr.Range().Ptr(),
			}}
		default:
			return cty.DynamicPseudoType, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid legacy variable type hint",
				Detail:   `To provide a full type expression, remove the surrounding quotes and give the type expression directly.`,
				Subject:  expr.Range().Ptr(),
			}}
		}
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, nil
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, diags
	}
	return ty, defaults, diags
}

// decodeOutputBlock decodes an output block; override is set for a block of
// an override file, which need not set value and cannot have preconditions.
func decodeOutputBlock(block *hcl.Block, override bool) (*Output, hcl.Diagnostics) {
	o := &Output{Name: block.Labels[0], DeclRange: block.DefRange, Type: cty.DynamicPseudoType}
	schema := outputBlockSchema
	if override {
		schema = relaxedSchema(schema)
	}
	content, diags := block.Body.Content(schema)

	if !hclsyntax.ValidIdentifier(o.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid output name", Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Description)...)
	}
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, tyDiags := typeexpr.TypeConstraintWithDefaults(attr.Expr)
		diags = append(diags, tyDiags...)
		if !tyDiags.HasErrors() {
			o.Type, o.TypeDefaults = ty, defaults
		}
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Ephemeral)...)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		dDiags := gohcl.DecodeExpression(attr.Expr, nil, &o.Deprecated)
		diags = append(diags, dDiags...)
		if !dDiags.HasErrors() && strings.TrimSpace(o.Deprecated) == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid `deprecated` attribute",
				Detail:   `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOn(attr)
		diags = append(diags, depsDiags...)
		o.DependsOn = deps
	}
	for _, b := range content.Blocks {
		if b.Type == "postcondition" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Postconditions are not allowed",
				Detail:   "Output values can only have preconditions, not postconditions.",
				Subject:  b.TypeRange.Ptr(),
			})
			continue
		}
		if override {
			diags = append(diags, overrideCheckRuleDiag(b))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(b)
		diags = append(diags, crDiags...)
		o.Preconditions = append(o.Preconditions, cr)
	}
	return o, diags
}

func decodeLocalsBlock(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	locals := make([]*Local, 0, len(attrs))
	for name, attr := range attrs {
		if !hclsyntax.ValidIdentifier(name) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid local value name", Detail: badIdentifierDetail, Subject: attr.NameRange.Ptr()})
		}
		locals = append(locals, &Local{Name: name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return locals, diags
}

func ctyToString(v cty.Value) (string, error) {
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", err
	}
	if s.IsNull() || !s.IsKnown() {
		return "", fmt.Errorf("value must be a known string")
	}
	return s.AsString(), nil
}
