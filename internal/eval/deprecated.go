package eval

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// deprecatedSchema returns the schema of resource r of module m when it
// declares deprecated attributes or nested blocks (OpenTofu 1.12 warns
// where a configuration refers to them), nil otherwise or when the
// evaluator has no providers to ask. The answer is computed once per
// resource.
func (e *Evaluator) deprecatedSchema(m *config.Module, r *config.Resource) *provider.Block {
	if e.providers == nil || r == nil {
		return nil
	}
	key := addrs.ConfigResource{Module: m.Path, Resource: r.Addr}
	if b, done := e.deprecations.load(key); done {
		return b
	}
	name, _ := m.ProviderLocalName(r)
	fqn := m.ProviderFor(name)
	ctx := context.WithoutCancel(e.ctx)
	var sch provider.Schema
	var ds diag.Diagnostics
	switch r.Addr.Mode {
	case addrs.Data:
		sch, ds = e.providers.DataSourceSchema(ctx, fqn, r.Addr.Type)
	case addrs.Ephemeral:
		if all, more := e.providers.Schemas(ctx, fqn); !more.HasErrors() && all != nil {
			sch = all.EphemeralResources[r.Addr.Type]
		}
	default:
		sch, ds = e.providers.ResourceTypeSchema(ctx, fqn, r.Addr.Type)
	}
	var b *provider.Block
	if !ds.HasErrors() && sch.Block != nil && sch.Block.ContainsDeprecated() {
		b = sch.Block
	}
	e.deprecations.store(key, b)
	return b
}

// markDeprecatedAttributes marks the deprecated attributes and nested
// blocks of every instance in v, the whole value of resource r of module
// m, so that an expression using one warns ("Value derived from a
// deprecated source", naming the attribute: test_thing.a.old_name).
func (e *Evaluator) markDeprecatedAttributes(m *config.Module, r *config.Resource, v cty.Value) cty.Value {
	b := e.deprecatedSchema(m, r)
	if b == nil || !v.IsKnown() || v.IsNull() {
		return v
	}
	// Marks on the whole value (sensitive, say) come back afterwards.
	v, whole := v.Unmark()
	return e.markInstances(b, m, r, v).WithMarks(whole)
}

func (e *Evaluator) markInstances(b *provider.Block, m *config.Module, r *config.Resource, v cty.Value) cty.Value {
	remote := lang.FromRemoteModule(m)
	mark := func(inst cty.Value, by string) cty.Value {
		if !inst.IsKnown() || inst.IsNull() || !inst.Type().IsObjectType() {
			return inst
		}
		inst, instMarks := inst.Unmark()
		var pvms []cty.PathValueMarks
		for _, dp := range b.DeprecatedPaths(inst) {
			if _, err := dp.Path.Apply(inst); err != nil {
				continue
			}
			pvms = append(pvms, cty.PathValueMarks{Path: dp.Path,
				Marks: cty.NewValueMarks(lang.DeprecationMark(by+"."+diag.FormatPath(dp.Path), dp.Message, remote))})
		}
		if len(pvms) == 0 {
			return inst.WithMarks(instMarks)
		}
		return inst.MarkWithPaths(pvms).WithMarks(instMarks)
	}
	base := r.Addr.String()
	switch ModeOf(r.Count, r.ForEach, r.Enabled) {
	case Counted:
		if !v.Type().IsTupleType() {
			return v
		}
		elems := make([]cty.Value, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			i, _ := k.AsBigFloat().Int64()
			elems = append(elems, mark(ev, base+addrs.IntKey(int(i)).String()))
		}
		return cty.TupleVal(elems)
	case ForEach:
		if !v.Type().IsObjectType() {
			return v
		}
		attrs := make(map[string]cty.Value, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			attrs[k.AsString()] = mark(ev, base+addrs.StringKey(k.AsString()).String())
		}
		return cty.ObjectVal(attrs)
	}
	return mark(v, base)
}
