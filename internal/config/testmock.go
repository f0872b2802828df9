package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

var mockProviderSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "for_each"}, {Name: "source"}, {Name: "override_during"}},
	Blocks:     mockDataBlocks,
}

// mockDataBlocks are the blocks of a mock_provider and of a .tfmock.hcl file.
var mockDataBlocks = []hcl.BlockHeaderSchema{
	{Type: "mock_resource", LabelNames: []string{"type"}},
	{Type: "mock_data", LabelNames: []string{"type"}},
	{Type: "mock_ephemeral", LabelNames: []string{"type"}},
	{Type: "override_resource"},
	{Type: "override_data"},
	{Type: "override_ephemeral"},
}

var mockResourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}},
}

func overrideBlockSchema(valuesName string) *hcl.BodySchema {
	return &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "target", Required: true}, {Name: valuesName}, {Name: "override_during"},
	}}
}

func decodeMockProviderBlock(block *hcl.Block) (*MockProvider, hcl.Diagnostics) {
	content, diags := block.Body.Content(mockProviderSchema)
	name := block.Labels[0]
	if more := checkProviderNameNormalized(name, block.DefRange); more.HasErrors() {
		return nil, append(diags, more...)
	}
	mp := &MockProvider{Name: name, NameRange: block.LabelRanges[0], DeclRange: block.DefRange}
	if attr, ok := content.Attributes["alias"]; ok {
		more := gohcl.DecodeExpression(attr.Expr, nil, &mp.Alias)
		diags = append(diags, more...)
		mp.AliasRange = attr.Expr.Range().Ptr()
		if !more.HasErrors() && !hclsyntax.ValidIdentifier(mp.Alias) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid mock provider configuration alias",
				Detail: "An alias must be a valid name. " + badIdentifierDetail, Subject: mp.AliasRange})
		}
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mp.ForEach = attr.Expr
		if mp.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Alias required when using "for_each"`,
				Detail: `The for_each argument is allowed only for provider configurations with an alias.`, Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["source"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &mp.Source)...)
	}
	during, _, more := decodeOverrideDuring(content, DuringApply)
	diags = append(diags, more...)
	mp.During = during
	res, overrides, more := decodeMockData(content.Blocks, during)
	diags = append(diags, more...)
	mp.Resources, mp.Overrides = res, overrides
	return mp, diags
}

// decodeMockData decodes the mock_resource, mock_data, mock_ephemeral and
// override blocks
// of a mock_provider block or a .tfmock.hcl file, whose default
// override_during is during.
func decodeMockData(blocks hcl.Blocks, during OverrideTime) ([]*MockResource, []*Override, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var resources []*MockResource
	var overrides []*Override
	seen := map[string]hcl.Range{}
	for _, b := range blocks {
		switch b.Type {
		case "mock_resource", "mock_data", "mock_ephemeral":
			mr := &MockResource{Mode: addrs.Managed, Type: b.Labels[0], During: during, DeclRange: b.DefRange}
			switch b.Type {
			case "mock_data":
				mr.Mode = addrs.Data
			case "mock_ephemeral":
				mr.Mode = addrs.Ephemeral
			}
			key := b.Type + "." + mr.Type
			if prev, dup := seen[key]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Duplicate %s block", b.Type),
					Detail: fmt.Sprintf("A %s block for %s has already been defined at %s.", b.Type, mr.Type, prev), Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			seen[key] = b.DefRange
			content, more := b.Body.Content(mockResourceSchema)
			diags = append(diags, more...)
			if attr, ok := content.Attributes["defaults"]; ok {
				vals, more := literalObject(attr)
				diags = append(diags, more...)
				mr.Defaults = vals
			}
			d, set, more := decodeOverrideDuring(content, during)
			diags = append(diags, more...)
			mr.During, mr.DuringSet = d, set
			resources = append(resources, mr)
		case "override_resource", "override_data", "override_ephemeral":
			o, more := decodeOverrideBlock(b, during)
			diags = append(diags, more...)
			if o != nil {
				diags = append(diags, checkDuplicateOverride(overrides, o)...)
				overrides = append(overrides, o)
			}
		}
	}
	return resources, overrides, diags
}

// decodeOverrideBlock decodes an override_resource, override_data,
// override_ephemeral or override_module block; nil when its target is missing or invalid.
func decodeOverrideBlock(block *hcl.Block, during OverrideTime) (*Override, hcl.Diagnostics) {
	o := &Override{Kind: OverrideResource, DeclRange: block.DefRange}
	valuesName := "values"
	switch block.Type {
	case "override_data":
		o.Kind = OverrideData
	case "override_ephemeral":
		o.Kind = OverrideEphemeral
	case "override_module":
		o.Kind, valuesName = OverrideModule, "outputs"
	}
	content, diags := block.Body.Content(overrideBlockSchema(valuesName))
	attr, ok := content.Attributes["target"]
	if !ok {
		return nil, diags
	}
	trav, more := hcl.AbsTraversalForExpr(attr.Expr)
	diags = append(diags, more...)
	if more.HasErrors() {
		return nil, diags
	}
	o.TargetRange = attr.Expr.Range()
	target, err := addrs.ParseTarget(trav)
	invalid := func(detail string) (*Override, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid override target", Detail: detail, Subject: o.TargetRange.Ptr()})
	}
	if err != nil {
		return invalid(upperFirstRune(err.Error()) + ".")
	}
	switch o.Kind {
	case OverrideModule:
		if target.Kind != addrs.ModuleTarget {
			return invalid(fmt.Sprintf("You can only target modules from override_module blocks, not %s.", target))
		}
	case OverrideData:
		if target.Kind == addrs.ModuleTarget || target.Resource.Mode != addrs.Data {
			return invalid(fmt.Sprintf("You can only target data sources from override_data blocks, not %s.", target))
		}
	case OverrideEphemeral:
		if target.Kind == addrs.ModuleTarget || target.Resource.Mode != addrs.Ephemeral {
			return invalid(fmt.Sprintf("You can only target ephemeral resources from override_ephemeral blocks, not %s.", target))
		}
	default:
		if target.Kind == addrs.ModuleTarget || target.Resource.Mode != addrs.Managed {
			return invalid(fmt.Sprintf("You can only target resources from override_resource blocks, not %s.", target))
		}
	}
	o.Target = target
	if attr, ok := content.Attributes[valuesName]; ok {
		vals, more := literalObject(attr)
		diags = append(diags, more...)
		o.Values = vals
	}
	d, set, more := decodeOverrideDuring(content, during)
	diags = append(diags, more...)
	o.During, o.DuringSet = d, set
	return o, diags
}

// checkDuplicateOverride reports o when one of earlier has its target.
func checkDuplicateOverride(earlier []*Override, o *Override) hcl.Diagnostics {
	for _, e := range earlier {
		if e.Target == o.Target {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Duplicate %s block", o.Kind.BlockType()),
				Detail:  fmt.Sprintf("An %s block targeting %s has already been defined at %s.", o.Kind.BlockType(), o.Target, e.DeclRange),
				Subject: o.TargetRange.Ptr()}}
		}
	}
	return nil
}

// decodeOverrideDuring reads override_during (plan or apply); def when absent.
func decodeOverrideDuring(content *hcl.BodyContent, def OverrideTime) (OverrideTime, bool, hcl.Diagnostics) {
	attr, ok := content.Attributes["override_during"]
	if !ok {
		return def, false, nil
	}
	switch hcl.ExprAsKeyword(attr.Expr) {
	case "plan":
		return DuringPlan, true, nil
	case "apply":
		return DuringApply, true, nil
	}
	return def, false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid override_during value",
		Detail: "The override_during attribute must be a value of plan or apply.", Subject: attr.Range.Ptr()}}
}

// literalObject evaluates an attribute that must be an object of
// literals (no references).
func literalObject(attr *hcl.Attribute) (map[string]cty.Value, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Object expected",
			Detail: fmt.Sprintf("The attribute `%v` must be an object.", attr.Name), Subject: attr.Range.Ptr()})
	}
	if v.IsNull() {
		return map[string]cty.Value{}, diags
	}
	out := v.AsValueMap()
	if out == nil {
		out = map[string]cty.Value{}
	}
	return out, diags
}

// LoadMockSource reads the mock data files (*.tfmock.hcl and
// *.tfmock.json) of dir, a mock_provider's source, into its resources and
// overrides (those the block itself declares win over the files', type by
// type and target by target).
func (p *MockProvider) LoadMockSource(dir string) diag.Diagnostics {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return diag.Diagnostics{diag.At(p.DeclRange, "Failed to read mock data directory",
			fmt.Sprintf("The mock data directory %s could not be read: %s.", dir, err))}
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && !isIgnoredFile(n) && (strings.HasSuffix(n, ".tfmock.hcl") || strings.HasSuffix(n, ".tfmock.json")) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	for _, n := range names {
		path := filepath.Join(dir, n)
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read mock data file", Detail: err.Error()})
			continue
		}
		body, more := parseFile(path, src)
		diags = append(diags, more...)
		if body == nil {
			continue
		}
		content, more := body.Content(&hcl.BodySchema{Blocks: mockDataBlocks})
		diags = append(diags, more...)
		res, overrides, more := decodeMockData(content.Blocks, p.During)
		diags = append(diags, more...)
		for _, r := range res {
			if !containsMockResource(p.Resources, r) {
				p.Resources = append(p.Resources, r)
			}
		}
		for _, o := range overrides {
			if checkDuplicateOverride(p.Overrides, o) == nil {
				p.Overrides = append(p.Overrides, o)
			}
		}
	}
	return diag.FromHCL(diags)
}

func containsMockResource(list []*MockResource, r *MockResource) bool {
	for _, x := range list {
		if x.Mode == r.Mode && x.Type == r.Type {
			return true
		}
	}
	return false
}
