package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/version"
)

// languageEdition is the only language edition OpenTofu 1.12 knows.
const languageEdition = "tofu2024"

var languageBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

// compatibleWithSchema is the part of a compatible_with block rig reads;
// the block may name other software too, which is ignored.
var compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}

// decodeLanguageBlock decodes a language block (OpenTofu 1.12): the
// language edition (only tofu2024), experiments (none exist), and a
// compatible_with block whose opentofu argument is a version constraint,
// returned (nil when there is none) to be checked by CheckCoreVersion.
// override is set for a block of an override file, which may not have one.
func decodeLanguageBlock(block *hcl.Block, override bool) (*VersionConstraint, hcl.Diagnostics) {
	if override {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Language selections in override file",
			Detail:   "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
			Subject:  block.DefRange.Ptr(),
		}}
	}
	content, diags := block.Body.Content(languageBlockSchema)
	if attr, ok := content.Attributes["edition"]; ok {
		diags = append(diags, checkLanguageEdition(attr)...)
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, checkExperiments(attr)...)
	}
	var constraint *VersionConstraint
	for _, b := range content.Blocks {
		cw, _, more := b.Body.PartialContent(compatibleWithSchema)
		diags = append(diags, more...)
		attr, ok := cw.Attributes["opentofu"]
		if !ok {
			continue
		}
		if constraint != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate compatible_with block",
				Detail:   fmt.Sprintf("Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at %s.", constraint.DeclRange),
				Subject:  block.DefRange.Ptr(),
			})
			continue
		}
		s, more := decodeVersionConstraint(attr)
		diags = append(diags, more...)
		if more.HasErrors() {
			continue
		}
		constraint = &VersionConstraint{Constraint: s, DeclRange: attr.Range}
		if parts := parseConstraintParts(s); allowsVersion(parts, [3]uint64{1, 11, 0}) && !hasPrerelease(parts) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Ineffective version constraint",
				Detail:   "The compatible_with block was added in OpenTofu v1.12.0, so any constraint specified this way should exclude earlier versions of OpenTofu, such as by including \">= 1.12.0\".\n\nIf your module must be compatible with earlier versions of OpenTofu, use the required_version argument in a \"terraform\" block in a file named with the .tofu suffix, which is an older way to specify OpenTofu version constraints.",
				Subject:  attr.Range.Ptr(),
			})
		}
	}
	return constraint, diags
}

func hasPrerelease(parts []constraintPart) bool {
	for _, p := range parts {
		if p.prerelease != "" {
			return true
		}
	}
	return false
}

// checkLanguageEdition checks a language block's edition argument.
func checkLanguageEdition(attr *hcl.Attribute) hcl.Diagnostics {
	kw := hcl.ExprAsKeyword(attr.Expr)
	switch {
	case kw == "":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid language edition",
			Detail:   fmt.Sprintf("The \"edition\" argument expects a bare language edition keyword. OpenTofu %s supports only language edition %s, which is the default.", version.OpenTofu, languageEdition),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	case strings.HasPrefix(kw, "TF"):
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported language edition",
			Detail:   fmt.Sprintf("OpenTofu v%s does not support language edition %q. This module may be intended for use with other software.", version.OpenTofu, kw),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	case kw != languageEdition:
		rel := "different"
		if kw > languageEdition {
			rel = "newer"
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported language edition",
			Detail:   fmt.Sprintf("OpenTofu v%s only supports language edition %s. This module requires a %s version of OpenTofu CLI.", version.OpenTofu, languageEdition, rel),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return nil
}

// checkExperiments checks a language block's experiments argument: there
// are no current experiments, so every keyword is an error.
func checkExperiments(attr *hcl.Attribute) hcl.Diagnostics {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return diags
	}
	for _, expr := range exprs {
		kw := hcl.ExprAsKeyword(expr)
		if kw == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid experiment keyword",
				Detail:   "Elements of \"experiments\" must all be keywords representing active experiments.",
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown experiment keyword",
			Detail:   fmt.Sprintf("There is no current experiment with the keyword %q.", kw),
			Subject:  expr.Range().Ptr(),
		})
	}
	return diags
}
