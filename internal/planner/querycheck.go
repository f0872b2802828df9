package planner

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// listSchemas returns the list resource schema of list block l (its
// config block's) and the schema of the managed resource type it lists,
// which must have a resource identity.
func listSchemas(ctx context.Context, providers *provider.Set, l *config.List, fqn addrs.Provider) (provider.Schema, provider.Schema, diag.Diagnostics) {
	schemas, ds := providers.Schemas(ctx, fqn)
	if ds.HasErrors() {
		return provider.Schema{}, provider.Schema{}, ds
	}
	lsch, ok := schemas.ListResources[l.Type]
	if !ok {
		return lsch, provider.Schema{}, ds.Append(diag.At(l.TypeRange, "Invalid list resource",
			fmt.Sprintf("The provider %s does not support list resource %q.", fqn.ForDisplay(), l.Type)))
	}
	rsch, ok := schemas.ResourceTypes[l.Type]
	if !ok || rsch.Identity == nil {
		return lsch, rsch, ds.Append(diag.At(l.TypeRange, "Invalid list resource",
			fmt.Sprintf("The provider %s lists %q objects but declares no managed resource type of that name with a resource identity.", fqn.ForDisplay(), l.Type)))
	}
	return lsch, rsch, ds
}

// evalLimit evaluates a list block's limit: a whole number, zero or more;
// DefaultListLimit when not set. With allowUnknown (validation) an
// unknown limit is accepted, as -1.
func evalLimit(scope *lang.Scope, expr hcl.Expression, allowUnknown bool) (int64, diag.Diagnostics) {
	if expr == nil {
		return DefaultListLimit, nil
	}
	v, ds := scope.EvalExpr(expr, cty.Number)
	if ds.HasErrors() {
		return 0, ds
	}
	v, _ = v.Unmark()
	if !v.IsKnown() && allowUnknown {
		return -1, ds
	}
	n, acc := big.NewInt(0), big.Accuracy(0)
	if v.IsKnown() && !v.IsNull() {
		n, acc = v.AsBigFloat().Int(nil)
	}
	if !v.IsKnown() || v.IsNull() || acc != big.Exact || n.Sign() < 0 || !n.IsInt64() {
		return 0, ds.Append(diag.At(expr.Range(), "Invalid limit argument", "limit must be a known whole number, zero or more."))
	}
	return n.Int64(), ds
}

// evalIncludeResource evaluates a list block's include_resource: a known
// boolean; false when not set. With allowUnknown an unknown value is
// accepted, as false.
func evalIncludeResource(scope *lang.Scope, expr hcl.Expression, allowUnknown bool) (bool, diag.Diagnostics) {
	if expr == nil {
		return false, nil
	}
	v, ds := scope.EvalExpr(expr, cty.Bool)
	if ds.HasErrors() {
		return false, ds
	}
	v, _ = v.Unmark()
	if !v.IsKnown() && allowUnknown {
		return false, ds
	}
	if !v.IsKnown() || v.IsNull() {
		return false, ds.Append(diag.At(expr.Range(), "Invalid include_resource argument", "include_resource must be a known boolean."))
	}
	return v.True(), ds
}

// validateLists checks the list blocks of the query files without
// variables or state (validate -query): each names a list resource type
// of its provider, its config block decodes against that type's schema,
// and its count, for_each, limit and include_resource have the right
// types (and, where known, values).
func validateLists(ctx context.Context, cfg *config.Module, providers *provider.Set, fns *lang.ProviderFunctions, cwd string) diag.Diagnostics {
	var ds diag.Diagnostics
	scope := validationScope(cfg, fns, cwd)
	for _, l := range cfg.SortedLists() {
		fqn := ResolveProviderConfig(cfg, l.Provider.Name, l.Provider.Alias).Provider
		lsch, _, more := listSchemas(ctx, providers, l, fqn)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		s := *scope
		switch {
		case l.Count != nil:
			_, more := s.EvalExpr(l.Count, cty.Number)
			ds = ds.Append(more)
			s.Instance.CountIndex = cty.UnknownVal(cty.Number)
		case l.ForEach != nil:
			_, more := s.EvalExpr(l.ForEach, cty.DynamicPseudoType)
			ds = ds.Append(more)
			s.Instance.EachKey, s.Instance.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
		}
		body := l.Config
		if body == nil {
			body = hcl.EmptyBody()
		}
		val, more := s.EvalBlock(body, lsch.Block.DecoderSpec())
		ds = ds.Append(more)
		if !more.HasErrors() {
			// The provider checks the config too, unknown values and all.
			if prov, more := providers.Validator(ctx, fqn); !more.HasErrors() {
				val, _ = val.UnmarkDeep()
				ds = ds.Append(prov.ValidateListResourceConfig(ctx, l.Type, val).InBody(l.Config))
			}
		}
		_, more = evalLimit(&s, l.Limit, true)
		ds = ds.Append(more)
		_, more = evalIncludeResource(&s, l.IncludeResource, true)
		ds = ds.Append(more)
	}
	return ds
}
