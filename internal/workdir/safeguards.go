package workdir

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// safeguardNames lists the settings safeguards reads, for the error about
// an unknown one.
const safeguardNames = "record_prevent_destroy, record_create_intents and health_gate blocks"

// Safeguards are rig.hcl's settings of what rig adds to keep objects safe:
//
//	record_prevent_destroy = true  # keep prevent_destroy with each object
//	record_create_intents  = true  # record each create before the call
//	health_gate "aws_instance.web" {  # create_before_destroy replacements
//	  interval = "10s"                # read again and check postconditions
//	  timeout  = "5m"                 # until they pass or this passes
//	  batch    = 2                    # instances replaced at a time
//	}
type Safeguards struct {
	// RecordPreventDestroy records, with each object whose resource sets
	// lifecycle.prevent_destroy, where it was set (planner.Options).
	RecordPreventDestroy bool
	// RecordCreateIntents records each create's intent before its
	// provider is asked (apply.IntentLog), so that a crash's cut-off
	// creates are listed by the next run.
	RecordCreateIntents bool
	// Gates are the health gates, by resource address (planner.Options).
	Gates map[string]plan.HealthGate
}

// Health gates' defaults.
const (
	defaultGateInterval = 5 * time.Second
	defaultGateTimeout  = 5 * time.Minute
)

// attribute reads the safeguard setting name, reporting false when it is
// not one.
func (s *Safeguards) attribute(name string, attr *hclsyntax.Attribute, v cty.Value) (bool, diag.Diagnostics) {
	switch name {
	case "record_prevent_destroy":
		if v.Type() != cty.Bool || v.IsNull() {
			return true, diag.Diagnostics{diag.At(attr.Expr.Range(), "Invalid record_prevent_destroy",
				"record_prevent_destroy must be true or false: whether rig records lifecycle.prevent_destroy with each object it protects, so that the protection outlives the resource block.")}
		}
		s.RecordPreventDestroy = v.True()
		return true, nil
	case "record_create_intents":
		if v.Type() != cty.Bool || v.IsNull() {
			return true, diag.Diagnostics{diag.At(attr.Expr.Range(), "Invalid record_create_intents",
				"record_create_intents must be true or false: whether rig records each create durably before asking its provider, so that the creates a crash cuts off are listed afterwards.")}
		}
		s.RecordCreateIntents = v.True()
		return true, nil
	}
	return false, nil
}

// block reads a block of rig.hcl.
func (s *Safeguards) block(b *hclsyntax.Block) diag.Diagnostics {
	if b.Type != "health_gate" {
		return diag.Diagnostics{diag.At(b.TypeRange, "Unsupported block type", fmt.Sprintf("%s has no block type %q; it knows %s.", SettingsFile, b.Type, safeguardNames))}
	}
	if len(b.Labels) != 1 || b.Labels[0] == "" {
		return diag.Diagnostics{diag.At(b.TypeRange, "Invalid health_gate", `A health_gate block has one label, the address of the resource it gates, such as health_gate "aws_instance.web".`)}
	}
	g := plan.HealthGate{Interval: defaultGateInterval, Timeout: defaultGateTimeout}
	var ds diag.Diagnostics
	for name, attr := range b.Body.Attributes {
		v, hds := attr.Expr.Value(nil)
		if ds = ds.Append(diag.FromHCL(hds)); hds.HasErrors() {
			continue
		}
		switch name {
		case "interval", "timeout":
			var d time.Duration
			var err error
			if v.Type() != cty.String || v.IsNull() {
				err = fmt.Errorf("not a string")
			} else if d, err = time.ParseDuration(v.AsString()); err == nil && d <= 0 {
				err = fmt.Errorf("not positive")
			}
			if err != nil {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid "+name, name+` must be a duration such as "10s" or "5m".`))
				continue
			}
			if name == "interval" {
				g.Interval = d
			} else {
				g.Timeout = d
			}
		case "batch":
			n, ok := positiveInt(v)
			if !ok {
				ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid batch", "batch must be a whole number greater than zero: how many instances are replaced at a time."))
				continue
			}
			g.BatchSize = n
		default:
			ds = ds.Append(diag.At(attr.NameRange, "Unsupported argument", fmt.Sprintf("A health_gate block has no argument %q; it knows interval, timeout and batch.", name)))
		}
	}
	for _, nested := range b.Body.Blocks {
		ds = ds.Append(diag.At(nested.TypeRange, "Unsupported block type", "A health_gate block has no nested blocks."))
	}
	if s.Gates == nil {
		s.Gates = map[string]plan.HealthGate{}
	}
	if _, dup := s.Gates[b.Labels[0]]; dup {
		return ds.Append(diag.At(b.LabelRanges[0], "Duplicate health_gate", fmt.Sprintf("%s has a health_gate for %s already.", SettingsFile, b.Labels[0])))
	}
	s.Gates[b.Labels[0]] = g
	return ds
}
