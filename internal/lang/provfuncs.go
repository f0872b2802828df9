package lang

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/addrs"
)

// ProviderFunctions are the provider-defined functions a module may call,
// named "provider::LOCALNAME::FUNCTION" (and
// "provider::LOCALNAME::ALIAS::FUNCTION"), together with the providers its
// required_providers declares, for the diagnostics of a call to a function
// that is not there. Build one with NewProviderFunctions; it is safe for
// concurrent use and a nil *ProviderFunctions has no functions.
type ProviderFunctions struct {
	funcs map[string]function.Function
	// declared maps each local name in required_providers to its provider.
	declared map[string]addrs.Provider
	// tables caches, per cacheKey, the library merged with funcs.
	tables sync.Map
}

// NewProviderFunctions returns the provider functions funcs (keyed by their
// full names) of the providers declared (by local name). It keeps both maps.
func NewProviderFunctions(funcs map[string]function.Function, declared map[string]addrs.Provider) *ProviderFunctions {
	return &ProviderFunctions{funcs: funcs, declared: declared}
}

// ProviderFunctionName returns the name a configuration calls a provider
// function by: provider::LOCALNAME::FUNCTION, or with the alias of a
// provider configuration between the two.
func ProviderFunctionName(localName, alias, function string) string {
	if alias != "" {
		return "provider::" + localName + "::" + alias + "::" + function
	}
	return "provider::" + localName + "::" + function
}

// table returns the function library of k with the provider functions added.
func (pf *ProviderFunctions) table(k funcKey) map[string]function.Function {
	base := functionsFor(k)
	if pf == nil || len(pf.funcs) == 0 {
		return base
	}
	ck := cacheKey{baseDir: k.baseDir, pureOnly: k.pureOnly}
	if !k.planTimestamp.IsZero() {
		ck.hasPlan, ck.planNano = true, k.planTimestamp.UnixNano()
	}
	if t, ok := pf.tables.Load(ck); ok {
		return t.(map[string]function.Function)
	}
	merged := make(map[string]function.Function, len(base)+len(pf.funcs))
	for name, f := range base {
		merged[name] = f
	}
	for name, f := range pf.funcs {
		merged[name] = f
	}
	t, _ := pf.tables.LoadOrStore(ck, merged)
	return t.(map[string]function.Function)
}

// explainUnknown rewords hcl's "Call to unknown function" diagnostics as
// OpenTofu does for namespaced functions: no such built-in (core::), a
// namespace that is neither core:: nor provider::, a provider not in
// required_providers, or a provider without such a function; and a call
// without a namespace of a function some provider has suggests the
// provider's. ds is changed in place.
func (pf *ProviderFunctions) explainUnknown(ds hcl.Diagnostics) {
	for _, d := range ds {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](d)
		if !ok {
			continue
		}
		name, namespace := extra.CalledFunctionName(), extra.CalledFunctionNamespace()
		if namespace == "" {
			if pf == nil {
				continue
			}
			// A provider's function of that name is a better suggestion
			// than hcl's nearest library function.
			best := ""
			for full := range pf.funcs {
				if strings.HasSuffix(full, "::"+name) && (best == "" || full < best) {
					best = full
				}
			}
			if best != "" {
				d.Detail = fmt.Sprintf("There is no function named %q. Did you mean %q?", name, best)
			}
			continue
		}
		parts := strings.Split(strings.TrimSuffix(namespace, "::"), "::")
		switch {
		case parts[0] == "core":
			d.Summary = "Call to unknown function"
			d.Detail = fmt.Sprintf("There is no builtin (core::) function named %q.", name)
			continue
		case parts[0] != "provider":
			d.Summary = "Unknown function namespace"
			d.Detail = fmt.Sprintf("Function %q does not exist within a valid namespace (provider,core)", namespace+name)
			continue
		case len(parts) < 2 || parts[1] == "":
			d.Summary = "Unknown provider function"
			d.Detail = `The function call must include the provider name after the "provider::" prefix.`
			continue
		}
		var p addrs.Provider
		if pf != nil {
			p = pf.declared[parts[1]]
		}
		if p.IsZero() {
			d.Summary = "Unknown function provider"
			d.Detail = fmt.Sprintf("Provider %q does not exist within the required_providers of this module", parts[1])
			continue
		}
		pc := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: p}
		if len(parts) > 2 {
			pc.Alias = parts[2]
		}
		d.Summary = "Function not found in provider"
		d.Detail = fmt.Sprintf("Function %q was not registered by provider %q", name, pc.String())
	}
}
