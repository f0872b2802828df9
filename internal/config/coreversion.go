package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/version"
)

// VersionConstraint is a required_version argument of a terraform block.
type VersionConstraint struct {
	// Constraint is the constraint string, checked for syntax.
	Constraint string
	// DeclRange is the whole argument, where a failed check is reported.
	DeclRange hcl.Range
}

// CheckCoreVersion checks the required_version constraints of m and of
// every module below it against version.Terraform, the OpenTofu version rig
// stands in for, with OpenTofu's diagnostics: one for each constraint not
// met, and one for each constraint naming a prerelease (which OpenTofu does
// not support).
func (m *Module) CheckCoreVersion() diag.Diagnostics {
	var hdiags hcl.Diagnostics
	current, _, _ := parseVersionSegments(version.Terraform)
	for _, mod := range m.AllModules() {
		for _, vc := range mod.Terraform.RequiredVersion {
			parts := parseConstraintParts(vc.Constraint)
			prerelease := false
			for _, p := range parts {
				if p.prerelease != "" {
					prerelease = true
					hdiags = append(hdiags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid required_version constraint",
						Detail:   fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.", p),
						Subject:  vc.DeclRange.Ptr(),
					})
				}
			}
			if prerelease || allowsVersion(parts, current) {
				continue
			}
			detail := fmt.Sprintf("This configuration does not support OpenTofu version %s, the version rig is compatible with.", version.Terraform)
			if call := mod.call(); call != nil {
				detail = fmt.Sprintf("Module %s (from %s) does not support OpenTofu version %s, the version rig is compatible with.", mod.Path, call.Source, version.Terraform)
			}
			hdiags = append(hdiags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported OpenTofu Core version",
				Detail:   detail + " To proceed, either choose another supported version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
				Subject:  vc.DeclRange.Ptr(),
			})
		}
	}
	return diag.FromHCL(hdiags)
}

// call returns the module block that calls m, nil for the root.
func (m *Module) call() *ModuleCall {
	if m.Parent == nil {
		return nil
	}
	_, name := m.Path.Parent()
	return m.Parent.ModuleCalls[name]
}

// constraintPart is one comma-separated part of a version constraint.
type constraintPart struct {
	op         string // "=", "!=", ">", ">=", "<", "<=" or "~>"
	segments   [3]uint64
	specified  int // how many segments were written (1–3)
	prerelease string
}

func (p constraintPart) String() string {
	s := make([]string, p.specified)
	for i := range s {
		s[i] = strconv.FormatUint(p.segments[i], 10)
	}
	v := strings.Join(s, ".")
	if p.prerelease != "" {
		v += "-" + p.prerelease
	}
	if p.op == "=" {
		return v
	}
	return p.op + " " + v
}

// parseConstraintParts parses a constraint string that validVersionConstraint
// accepted.
func parseConstraintParts(s string) []constraintPart {
	var out []constraintPart
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		p := constraintPart{op: "="}
		for _, op := range []string{"~>", ">=", "<=", "!=", ">", "<", "="} {
			if strings.HasPrefix(part, op) {
				p.op, part = op, strings.TrimSpace(part[len(op):])
				break
			}
		}
		p.segments, p.specified, p.prerelease = parseVersionSegments(strings.TrimPrefix(part, "v"))
		out = append(out, p)
	}
	return out
}

// parseVersionSegments parses "1", "1.2", "1.2.3", "1.2.3-beta1+meta";
// absent segments are zero and build metadata is dropped.
func parseVersionSegments(s string) (segs [3]uint64, specified int, prerelease string) {
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, prerelease = s[:i], s[i+1:]
	}
	for i, f := range strings.SplitN(s, ".", 3) {
		segs[i], _ = strconv.ParseUint(f, 10, 64)
		specified = i + 1
	}
	return segs, specified, prerelease
}

// allowsVersion reports whether v meets every part, with the semantics
// OpenTofu gives required_version: unwritten segments are zero, "=" is
// exact, and "~>" allows only the last written segment (or, with one
// segment written, any later version) to grow.
func allowsVersion(parts []constraintPart, v [3]uint64) bool {
	for _, p := range parts {
		cmp := compareSegments(v, p.segments)
		ok := false
		switch p.op {
		case "=":
			ok = cmp == 0
		case "!=":
			ok = cmp != 0
		case ">":
			ok = cmp > 0
		case ">=":
			ok = cmp >= 0
		case "<":
			ok = cmp < 0
		case "<=":
			ok = cmp <= 0
		case "~>":
			ok = cmp >= 0
			for i := 0; i < p.specified-1; i++ {
				ok = ok && v[i] == p.segments[i]
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func compareSegments(a, b [3]uint64) int {
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}

// firstLanguageEdition is the only language edition OpenTofu supports.
const firstEdition = "TF2021"

// checkLanguageEdition checks a terraform block's language argument.
func checkLanguageEdition(attr *hcl.Attribute) hcl.Diagnostics {
	kw := hcl.ExprAsKeyword(attr.Expr)
	switch {
	case kw == "":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid language edition",
			Detail:   fmt.Sprintf("The language argument expects a bare language edition keyword. OpenTofu %s supports only language edition %s, which is the default.", version.Terraform, firstEdition),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	case kw != firstEdition:
		rel := "different"
		if kw > firstEdition {
			rel = "newer"
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported language edition",
			Detail:   fmt.Sprintf("OpenTofu v%s only supports language edition %s. This module requires a %s version of OpenTofu CLI.", version.Terraform, firstEdition, rel),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return nil
}

// concludedExperiments are the experiments OpenTofu knows to have ended, with
// what replaced them. It has no current experiments, and outside its alpha
// releases any experiments argument is an error.
var concludedExperiments = map[string]string{
	"variable_validation":            "Custom variable validation can now be used by default, without enabling an experiment.",
	"provider_sensitive_attrs":       "Provider-defined sensitive attributes are now redacted by default, without enabling an experiment.",
	"config_driven_move":             "Declarations of moved resource instances using \"moved\" blocks can now be used by default, without enabling an experiment.",
	"preconditions_postconditions":   "Condition blocks can now be used by default, without enabling an experiment.",
	"module_variable_optional_attrs": "The final feature corresponding to this experiment differs from the experimental form and is available in the OpenTofu language from OpenTofu v1.3.0 onwards.",
}

// checkExperiments checks a terraform block's experiments argument as an
// OpenTofu release does: it is an error, except that a list naming the
// concluded module_variable_optional_attrs experiment gets the diagnostics
// of each of its keywords instead.
func checkExperiments(attr *hcl.Attribute) hcl.Diagnostics {
	exprs, listDiags := hcl.ExprList(attr.Expr)
	optionalAttrs := false
	var diags hcl.Diagnostics
	if !listDiags.HasErrors() {
		for _, expr := range exprs {
			kw := hcl.ExprAsKeyword(expr)
			optionalAttrs = optionalAttrs || kw == "module_variable_optional_attrs"
			switch msg, concluded := concludedExperiments[kw]; {
			case kw == "":
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid experiment keyword",
					Detail:   "Elements of \"experiments\" must all be keywords representing active experiments.",
					Subject:  expr.Range().Ptr(),
				})
			case concluded:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Experiment has concluded",
					Detail:   fmt.Sprintf("Experiment %q is no longer available. %s", kw, msg),
					Subject:  expr.Range().Ptr(),
				})
			default:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unknown experiment keyword",
					Detail:   fmt.Sprintf("There is no current experiment with the keyword %q.", kw),
					Subject:  expr.Range().Ptr(),
				})
			}
		}
	}
	if optionalAttrs {
		return diags
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Module uses experimental features",
		Detail:   "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of OpenTofu.",
		Subject:  attr.NameRange.Ptr(),
	}}
}
