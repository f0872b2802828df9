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

// CheckCoreVersion checks the version constraints of m and of every module
// below it, with OpenTofu's diagnostics, and one for each constraint naming
// a prerelease (which OpenTofu does not support):
//
//   - required_version in a .tf file against the versions whose language
//     rig implements: version.Terraform, the version rig stands in for,
//     through the newest Terraform release whose additions it accepts,
//     version.TerraformNewest ("Unsupported OpenTofu Core version", as
//     OpenTofu 1.10 and Terraform check it, when none of them is allowed;
//     OpenTofu 1.12 leaves these to other software);
//   - required_version in a .tofu file and the opentofu constraint of a
//     language block's compatible_with against version.OpenTofu, the
//     OpenTofu language rig implements ("Incompatible module", as OpenTofu
//     1.12 checks them).
func (m *Module) CheckCoreVersion() diag.Diagnostics {
	var hdiags hcl.Diagnostics
	terraform, _, _ := parseVersionSegments(version.Terraform)
	opentofu, _, _ := parseVersionSegments(version.OpenTofu)
	for _, mod := range m.AllModules() {
		check := func(vc *VersionConstraint, forOpenTofu bool) {
			parts := parseConstraintParts(vc.Constraint)
			if hasPrerelease(parts) {
				for _, p := range parts {
					if p.prerelease != "" {
						hdiags = append(hdiags, &hcl.Diagnostic{
							Severity: hcl.DiagError,
							Summary:  "Invalid required_version constraint",
							Detail:   fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.", p),
							Subject:  vc.DeclRange.Ptr(),
						})
					}
				}
				return
			}
			if forOpenTofu {
				if !allowsVersion(parts, opentofu) {
					hdiags = append(hdiags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Incompatible module",
						Detail:   fmt.Sprintf("This module is not compatible with OpenTofu v%s, the OpenTofu language rig implements.\n\nTo proceed, either choose another supported version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.", version.OpenTofu),
						Subject:  vc.DeclRange.Ptr(),
					})
				}
				return
			}
			if allowsTerraformLanguage(parts, terraform) {
				return
			}
			detail := fmt.Sprintf("This configuration does not support OpenTofu version %s, the version rig is compatible with, nor any Terraform version up to %s.x, whose language rig also accepts.", version.Terraform, version.TerraformNewest)
			if call := mod.call(); call != nil {
				detail = fmt.Sprintf("Module %s (from %s) does not support OpenTofu version %s, the version rig is compatible with, nor any Terraform version up to %s.x, whose language rig also accepts.", mod.Path, call.Source, version.Terraform, version.TerraformNewest)
			}
			hdiags = append(hdiags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported OpenTofu Core version",
				Detail:   detail + " To proceed, either choose another supported version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
				Subject:  vc.DeclRange.Ptr(),
			})
		}
		for _, vc := range mod.Terraform.RequiredVersion {
			check(vc, isTofuFile(vc.DeclRange.Filename))
		}
		for _, vc := range mod.Terraform.CompatibleWith {
			check(vc, true)
		}
	}
	return diag.FromHCL(hdiags)
}

// isTofuFile reports whether filename is an OpenTofu-specific file
// (.tofu, .tofu.json), whose required_version constrains OpenTofu.
func isTofuFile(filename string) bool {
	return strings.HasSuffix(filename, ".tofu") || strings.HasSuffix(filename, ".tofu.json")
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
