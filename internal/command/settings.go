package command

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// settingsFile is rig's optional settings file beside the configuration.
// It is not a .tf file, so OpenTofu and Terraform ignore it.
const settingsFile = "rig.hcl"

// settings are the run settings read from rig.hcl:
//
//	parallelism = 20
//	limits = {
//	  aws                = 10  # a provider local name
//	  aws_iam_role       = 2   # a resource type
//	  "aws_instance.web" = 1   # a resource
//	}
//	recorded_dependencies = "reduced"  # or "transitive", the default
//	max_instances = 500000  # per resource block or module call; default 100000
//
// and rig's safeguards (safeguards.go).
type settings struct {
	parallelism int // 0 when not set
	limits      []apply.Limit
	// dependencies is what objects record as their dependencies.
	dependencies plan.DependencyMode
	// maxInstances bounds the instances of one resource block or module
	// call; 0 when not set (lang.DefaultMaxInstances).
	maxInstances int
	// safeguards are the settings of rig's own safeguards.
	safeguards safeguards
}

// loadSettings reads rig.hcl in the working directory, if there is one.
func (m *Meta) loadSettings() (settings, diag.Diagnostics) {
	var s settings
	src, err := os.ReadFile(settingsFile)
	if os.IsNotExist(err) {
		return s, nil
	}
	if err != nil {
		return s, diag.Diagnostics{diag.Errorf("Failed to read "+settingsFile, "%s", err)}
	}
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	m.sources[settingsFile] = src
	f, hds := hclsyntax.ParseConfig(src, settingsFile, hcl.Pos{Line: 1, Column: 1})
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return s, ds
	}
	body := f.Body.(*hclsyntax.Body)
	for _, b := range body.Blocks {
		ds = ds.Append(s.safeguards.block(b))
	}
	for name, attr := range body.Attributes {
		v, hds := attr.Expr.Value(nil)
		ds = ds.Append(hds)
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
			s.parallelism = n
		case "max_instances":
			n, ok := positiveInt(v)
			if !ok {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid max_instances", "max_instances must be a whole number greater than zero: the most instances one resource block or module call may have."))
				continue
			}
			s.maxInstances = n
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
				s.limits = append(s.limits, apply.Limit{Name: k, N: n})
			}
		case "recorded_dependencies":
			switch {
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "transitive":
				s.dependencies = plan.TransitiveDependencies
			case v.Type() == cty.String && !v.IsNull() && v.AsString() == "reduced":
				s.dependencies = plan.ReducedDependencies
			default:
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid recorded_dependencies",
					`recorded_dependencies must be "transitive" (every resource an object depends on, as OpenTofu records them; the default) or "reduced" (only the direct ones, with a deleted resource's dependencies passed on to its dependents).`))
			}
		default:
			if known, more := s.safeguards.attribute(name, attr, v); known {
				ds = ds.Append(more)
				continue
			}
			ds = ds.Append(diag.At(attr.NameRange, "Unsupported setting", fmt.Sprintf("%s has no setting named %q; it knows parallelism, limits, recorded_dependencies, max_instances, %s.", settingsFile, name, safeguardNames)))
		}
	}
	return s, ds
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

// limitFlags collects repeated -limit=NAME=N options.
type limitFlags struct{ limits *[]apply.Limit }

func (l limitFlags) String() string { return "" }

func (l limitFlags) Set(s string) error {
	name, nstr, ok := strings.Cut(s, "=")
	n, err := strconv.Atoi(nstr)
	if !ok || name == "" || err != nil || n <= 0 {
		return fmt.Errorf("want NAME=N with N a whole number greater than zero, like -limit=aws=5")
	}
	*l.limits = append(*l.limits, apply.Limit{Name: name, N: n})
	return nil
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
