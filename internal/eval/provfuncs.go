package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// ProviderFunctions returns the provider-defined functions cfg may call:
// the functions of every provider its required_providers declares, as
// provider::LOCALNAME::FUNCTION, and as
// provider::LOCALNAME::ALIAS::FUNCTION for each aliased configuration of it
// (OpenTofu's rules; the built-in terraform provider must be declared too).
// Signatures come from each provider's schema or GetFunctions; calls go to
// the provider's instance in set that served its schema, configured or
// not, with ctx. An argument that is (or contains) an unknown value gives
// an unknown result without a call, unless the parameter allows unknowns.
func ProviderFunctions(ctx context.Context, set *provider.Set, cfg *config.Module) (*lang.ProviderFunctions, diag.Diagnostics) {
	var ds diag.Diagnostics
	declared := map[string]addrs.Provider{}
	funcs := map[string]function.Function{}
	if cfg.Terraform == nil {
		return lang.NewProviderFunctions(funcs, declared), nil
	}
	names := make([]string, 0, len(cfg.Terraform.RequiredProviders))
	for name := range cfg.Terraform.RequiredProviders {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := cfg.ProviderFor(name)
		declared[name] = p
		specs, more := set.Functions(ctx, p)
		for i := range more {
			if more[i].Subject == nil {
				rng := cfg.Terraform.RequiredProviders[name].DeclRange
				more[i].Subject = &rng
			}
		}
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		aliases := []string{""}
		for _, pb := range cfg.ProviderConfigs {
			if pb.Name == name && pb.Alias != "" {
				aliases = append(aliases, pb.Alias)
			}
		}
		for fn, spec := range specs {
			f := providerFunction(ctx, set, p, fn, spec)
			for _, alias := range aliases {
				funcs[lang.ProviderFunctionName(name, alias, fn)] = f
			}
		}
	}
	return lang.NewProviderFunctions(funcs, declared), ds
}

// providerFunction turns a provider function into a cty function that
// calls it through set.
func providerFunction(ctx context.Context, set *provider.Set, p addrs.Provider, name string, spec provider.FunctionSpec) function.Function {
	params := make([]function.Parameter, len(spec.Parameters))
	for i, ps := range spec.Parameters {
		params[i] = functionParameter(ps)
	}
	var varParam *function.Parameter
	if spec.VariadicParameter != nil {
		vp := functionParameter(*spec.VariadicParameter)
		varParam = &vp
	}
	return function.New(&function.Spec{
		Description: spec.Summary,
		Params:      params,
		VarParam:    varParam,
		Type:        function.StaticReturnType(spec.ReturnType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			// cty only checks arguments for unknown values at the top.
			for i, arg := range args {
				ps := spec.VariadicParameter
				if i < len(spec.Parameters) {
					ps = &spec.Parameters[i]
				}
				if !ps.AllowUnknownValues && !arg.IsWhollyKnown() {
					return cty.UnknownVal(retType), nil
				}
			}
			v, err := set.CallFunction(ctx, p, name, args)
			var fe *provider.FunctionError
			if errors.As(err, &fe) {
				if fe.Argument != nil && int(*fe.Argument) < len(args) {
					return cty.UnknownVal(retType), function.NewArgError(int(*fe.Argument), errors.New(fe.Text))
				}
				return cty.UnknownVal(retType), errors.New(fe.Text)
			}
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			// A result of another type would make cty panic.
			if v == cty.NilVal {
				return cty.UnknownVal(retType), fmt.Errorf("provider %s returned no result from %s", p.ForDisplay(), name)
			}
			if errs := v.Type().TestConformance(retType); errs != nil {
				return cty.UnknownVal(retType), fmt.Errorf("provider %s returned a %s, not the %s its definition of %s promises",
					p.ForDisplay(), v.Type().FriendlyName(), retType.FriendlyName(), name)
			}
			return v, nil
		},
	})
}

func functionParameter(ps provider.FunctionParameter) function.Parameter {
	return function.Parameter{
		Name:         ps.Name,
		Description:  ps.Description,
		Type:         ps.Type,
		AllowNull:    ps.AllowNullValue,
		AllowUnknown: ps.AllowUnknownValues,
	}
}
