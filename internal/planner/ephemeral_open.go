package planner

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// EphemeralInstance is one instance of an ephemeral resource to open, as
// plan and apply open them.
type EphemeralInstance struct {
	Config   *config.Resource
	Schema   provider.Schema
	Provider provider.Interface
	Addr     addrs.AbsResourceInstance
	// Scope is the instance's scope (its count.index or each).
	Scope *lang.Scope
	// Checks records the results of its conditions (nil records none).
	Checks *checks.State
}

// OpenEphemeral checks an ephemeral resource instance's preconditions,
// evaluates its configuration, has the provider validate it and, when it
// is wholly known, opens it in set (once per run) and checks its
// postconditions, recording their results in in.Checks. It returns the instance's value, marked ephemeral and
// sensitive where the schema says: unknown where the configuration is
// not yet known.
func OpenEphemeral(ctx context.Context, set *ephemeral.Set, in EphemeralInstance) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	r, blk := in.Config, in.Schema.Block
	if blk == nil {
		return cty.DynamicVal.Mark(marks.Ephemeral), nil
	}
	ty := blk.ImpliedType()
	obj := checks.ResourceObject(in.Addr)
	for i, rule := range r.Preconditions {
		ds = ds.Append(eval.CheckRule(in.Scope, rule, "Resource precondition failed", "", eval.RuleAt{Checks: in.Checks, Object: obj, Type: checks.Precondition, Index: i}))
	}
	if ds.HasErrors() {
		return cty.UnknownVal(ty).Mark(marks.Ephemeral), ds
	}
	cfg, more := in.Scope.EvalBlock(r.Config, blk.DecoderSpec())
	ds = ds.Append(more)
	if more.HasErrors() {
		return cty.UnknownVal(ty).Mark(marks.Ephemeral), ds
	}
	marked := cfg
	cfg, cfgMarks := cfg.UnmarkDeepWithPaths()
	remark := func(v cty.Value) cty.Value {
		return marks.MarkEphemeral(blk.MarkSensitive(v.MarkWithPaths(marks.WithoutEphemeralPaths(cfgMarks))))
	}
	ep, ok := provider.AsEphemeral(in.Provider)
	if !ok {
		return cty.UnknownVal(ty).Mark(marks.Ephemeral), ds.Append(diag.At(r.DeclRange, "Ephemeral resources not supported",
			"The provider of "+in.Addr.String()+" does not support ephemeral resources."))
	}
	ds = ds.Append(diag.SortBySource(provider.Redacted(ep.ValidateEphemeralResourceConfig(ctx, r.Addr.Type, cfg), marked).InBody(r.Config)))
	if ds.HasErrors() {
		return cty.UnknownVal(ty).Mark(marks.Ephemeral), ds
	}
	if !cfg.IsWhollyKnown() {
		return remark(plannedDataObject(blk, cfg)), ds
	}
	v, more := set.Open(provider.WithResourceInstance(ctx, in.Addr), in.Addr, in.Provider, r.Addr.Type, cfg)
	more = diag.WithAddress(provider.Redacted(more, marked).InBody(r.Config), addrs.ObjectAddr{Instance: in.Addr})
	ds = ds.Append(more)
	if more.HasErrors() {
		return cty.UnknownVal(ty).Mark(marks.Ephemeral), ds
	}
	v = remark(v)
	self := *in.Scope
	self.Self = v
	for i, rule := range r.Postconditions {
		ds = ds.Append(eval.CheckRule(&self, rule, "Resource postcondition failed", "", eval.RuleAt{Checks: in.Checks, Object: obj, Type: checks.Postcondition, Index: i}))
	}
	return v, ds
}
