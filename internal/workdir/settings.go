package workdir

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// SettingsFile is rig's optional settings file beside the configuration.
// It is not a .tf file, so OpenTofu and Terraform ignore it.
const SettingsFile = "rig.hcl"

// Settings are the run settings read from rig.hcl:
//
//	parallelism = 20
//	limits = {
//	  aws                = 10  # a provider local name
//	  aws_iam_role       = 2   # a resource type
//	  "aws_instance.web" = 1   # a resource
//	}
//	recorded_dependencies = "reduced"  # or "transitive", the default
//	max_instances = 500000  # per resource block or module call; default 100000
//	refresh = "changed"  # plan -refresh=changed by default; or "all"
//	refresh_max_age = "12h"  # refresh objects not read back for this long; default 24h
//	progress_interval = "30s"  # how often long phases report progress; default 10s
//
// and rig's safeguards (safeguards.go).
type Settings struct {
	// Parallelism is how many operations run at once; 0 when not set.
	Parallelism int
	// Limits bound the operations of a provider, resource type or
	// resource that run at once.
	Limits []apply.Limit
	// Dependencies is what objects record as their dependencies.
	Dependencies plan.DependencyMode
	// MaxInstances bounds the instances of one resource block or module
	// call; 0 when not set (lang.DefaultMaxInstances).
	MaxInstances int
	// RefreshChanged is refresh = "changed"; RefreshMaxAge is
	// refresh_max_age (0 when not set).
	RefreshChanged bool
	RefreshMaxAge  time.Duration
	// ProgressInterval is progress_interval (0 when not set).
	ProgressInterval time.Duration
	// Safeguards are the settings of rig's own safeguards.
	Safeguards Safeguards
}

// LoadSettings reads rig.hcl in the working directory, if there is one,
// and returns its source too (nil without one), for diagnostics.
func (d *Dir) LoadSettings() (Settings, []byte, diag.Diagnostics) {
	var s Settings
	src, err := os.ReadFile(d.path(SettingsFile))
	if os.IsNotExist(err) {
		return s, nil, nil
	}
	if err != nil {
		return s, nil, diag.Diagnostics{diag.Errorf("Failed to read "+SettingsFile, "%s", err)}
	}
	f, hds := hclsyntax.ParseConfig(src, SettingsFile, hcl.Pos{Line: 1, Column: 1})
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return s, src, ds
	}
	body := f.Body.(*hclsyntax.Body)
	for _, b := range body.Blocks {
		ds = ds.Append(s.Safeguards.block(b))
	}
	for name, attr := range body.Attributes {
		v, hds := attr.Expr.Value(nil)
		ds = ds.Append(diag.FromHCL(hds))
		if hds.HasErrors() {
			continue
		}
		switch name {
		case "parallelism":
			n, ok := positiveInt(v)
			if !ok {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid parallelism", "parallelism must be a whole number greater than zero."))
				continue
			}
			s.Parallelism = n
		case "max_instances":
			n, ok := positiveInt(v)
			if !ok {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid max_instances", "max_instances must be a whole number greater than zero: the most instances one resource block or module call may have."))
				continue
			}
			s.MaxInstances = n
		case "limits":
			if !v.Type().IsObjectType() && !v.Type().IsMapType() || v.IsNull() {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid limits", "limits must be a map from a provider, resource type or resource address to a whole number."))
				continue
			}
			for k, nv := range v.AsValueMap() {
				n, ok := positiveInt(nv)
				if !ok {
					ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid limits", fmt.Sprintf("The limit for %q must be a whole number greater than zero.", k)))
					continue
				}
				s.Limits = append(s.Limits, apply.Limit{Name: k, N: n})
			}
		case "recorded_dependencies":
			switch {
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "transitive":
				s.Dependencies = plan.TransitiveDependencies
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "reduced":
				s.Dependencies = plan.ReducedDependencies
			default:
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid recorded_dependencies",
					`recorded_dependencies must be "transitive" (every resource an object depends on, as OpenTofu records them; the default) or "reduced" (only the direct ones, with a deleted resource's dependencies passed on to its dependents).`))
			}
		case "refresh":
			switch {
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "changed":
				s.RefreshChanged = true
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "all":
			default:
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid refresh", `refresh must be "all" (plans read back every object, the default) or "changed" (as plan -refresh=changed: only objects whose configuration, inputs or dependencies changed, those the plan changes, and those not read back for longer than refresh_max_age).`))
			}
		case "refresh_max_age":
			d, err := time.ParseDuration(stringOr(v))
			if err != nil || d <= 0 {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid refresh_max_age", `refresh_max_age must be a duration greater than zero, such as "12h" or "30m": how long -refresh=changed may go without reading an object back.`))
				continue
			}
			s.RefreshMaxAge = d
		case "progress_interval":
			d, err := time.ParseDuration(stringOr(v))
			if err != nil || d <= 0 {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid progress_interval", `progress_interval must be a duration greater than zero, such as "30s": how often a long refresh, plan, apply or destroy reports how far it has come.`))
				continue
			}
			s.ProgressInterval = d
		default:
			if known, more := s.Safeguards.attribute(name, attr, v); known {
				ds = ds.Append(more)
				continue
			}
			ds = ds.Append(diag.At(attr.NameRange, "Unsupported setting", fmt.Sprintf("%s has no setting named %q; it knows parallelism, limits, recorded_dependencies, max_instances, refresh, refresh_max_age, progress_interval, %s.", SettingsFile, name, safeguardNames)))
		}
	}
	return s, src, ds
}

// stringOr returns v's string, or "" when v is not a known string.
func stringOr(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

func positiveInt(v cty.Value) (int, bool) {
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.Number {
		return 0, false
	}
	f := v.AsBigFloat()
	if !f.IsInt() {
		return 0, false
	}
	n, acc := f.Int64()
	return int(n), n > 0 && acc == big.Exact && n <= math.MaxInt32
}

// mergeLimits returns the file's limits overridden by the command line's,
// by name, keeping the order of first appearance.
func mergeLimits(file, cli []apply.Limit) []apply.Limit {
	var out []apply.Limit
	index := map[string]int{}
	for _, list := range [][]apply.Limit{file, cli} {
		for _, l := range list {
			if i, ok := index[l.Name]; ok {
				out[i] = l
				continue
			}
			index[l.Name] = len(out)
			out = append(out, l)
		}
	}
	return out
}
