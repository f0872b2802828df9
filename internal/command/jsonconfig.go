package command

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
)

// configSummary describes the configuration tree below root as the JSON
// plan's "configuration" does: the provider configurations, and each
// module's resources, outputs, variables and calls with their expressions
// unevaluated. schemas supply the argument names of resource and provider
// bodies and resource schema versions; a resource or provider whose schema
// is missing is described without expressions.
func configSummary(root *config.Module, schemas ui.ProviderSchemas) *ui.ConfigSummary {
	pcs := providerConfigEntries{}
	pcs.add(root, schemas)
	out := &ui.ConfigSummary{RootModule: moduleSummary(root, schemas, pcs)}
	for key, e := range pcs {
		if e.source != "" {
			continue
		}
		if out.ProviderConfigs == nil {
			out.ProviderConfigs = map[string]ui.ProviderConfigSummary{}
		}
		out.ProviderConfigs[key] = e.summary
	}
	return out
}

// providerConfigEntry is one provider_config entry while the map is built.
// source is, for a configuration that stands for one declared in an
// ancestor module (passed by a call, or inherited implicitly), the key of
// that configuration; such entries are left out of the result and
// resources using them name their source instead.
type providerConfigEntry struct {
	summary ui.ProviderConfigSummary
	source  string
}

// providerConfigEntries are the entries by key: "NAME" or "NAME.ALIAS" in
// the root module, "module.a.module.b:NAME" below it.
type providerConfigEntries map[string]*providerConfigEntry

func providerConfigKey(module addrs.Module, name string) string {
	if module.IsRoot() {
		return name
	}
	return module.String() + ":" + name
}

// add records the provider configurations m declares, requires or uses,
// then those of every module it calls, parents before children, as
// Terraform lists them: provider blocks; required_providers entries and
// their configuration_aliases; default configurations of providers the
// module only uses; and, for each call, the configurations its providers
// argument passes.
func (pcs providerConfigEntries) add(m *config.Module, schemas ui.ProviderSchemas) {
	reqs := shallowRequirements(m)
	path := m.Path
	for _, key := range sortedMapKeys(m.ProviderConfigs) {
		pc := m.ProviderConfigs[key]
		fqn := m.ProviderFor(pc.Name)
		var blk *provider.Block
		if ps := schemas[fqn]; ps != nil {
			blk = ps.Provider.Block
		}
		pcs[providerConfigKey(path, key)] = &providerConfigEntry{summary: ui.ProviderConfigSummary{
			Name: pc.Name, FullName: fqn.String(), Alias: pc.Alias, ModuleAddress: path.String(),
			VersionConstraint: reqs[fqn].String(), Expressions: bodyExpressions(pc.Config, blk),
		}}
	}
	parentKey := func(name string) string {
		if m.Parent == nil {
			return ""
		}
		return providerConfigKey(m.Parent.Path, name)
	}
	for _, name := range sortedMapKeys(m.Terraform.RequiredProviders) {
		rp := m.Terraform.RequiredProviders[name]
		for _, alias := range rp.ConfigurationAliases {
			key := providerConfigKey(path, alias)
			if _, ok := pcs[key]; !ok {
				pcs[key] = &providerConfigEntry{summary: ui.ProviderConfigSummary{
					Name: rp.Name, FullName: rp.Provider.String(), ModuleAddress: path.String(), VersionConstraint: reqs[rp.Provider].String(),
				}}
			}
		}
		key := providerConfigKey(path, name)
		if _, ok := pcs[key]; ok {
			continue
		}
		fqn := rp.Provider.String()
		pcs[key] = &providerConfigEntry{
			summary: ui.ProviderConfigSummary{Name: name, FullName: fqn, ModuleAddress: path.String(), VersionConstraint: reqs[rp.Provider].String()},
			source:  pcs.sourceOf(parentKey(name), fqn),
		}
	}
	for _, fqn := range sortedProviders(reqs) {
		key := providerConfigKey(path, fqn.Type)
		if _, ok := pcs[key]; ok {
			continue
		}
		pcs[key] = &providerConfigEntry{
			summary: ui.ProviderConfigSummary{Name: fqn.Type, FullName: fqn.String(), ModuleAddress: path.String()},
			source:  pcs.sourceOf(parentKey(fqn.Type), fqn.String()),
		}
	}
	for _, name := range sortedMapKeys(m.ModuleCalls) {
		child := m.Children[name]
		if child == nil {
			continue
		}
		for _, pp := range m.ModuleCalls[name].Providers {
			inChild := pp.InChild.String()
			fqn := child.ProviderFor(pp.InChild.Name).String()
			pcs[providerConfigKey(child.Path, inChild)] = &providerConfigEntry{
				summary: ui.ProviderConfigSummary{Name: inChild, FullName: fqn, ModuleAddress: child.Path.String()},
				source:  pcs.sourceOf(providerConfigKey(path, pp.InParent.String()), fqn),
			}
		}
		pcs.add(child, schemas)
	}
}

// sourceOf follows the entries from key through their sources while they
// are of the same provider, and returns the last one found: the
// configuration an entry at key stands for. It returns "" when there is
// no entry at key for that provider.
func (pcs providerConfigEntries) sourceOf(key, fullName string) string {
	found := ""
	for key != "" {
		e, ok := pcs[key]
		if !ok || e.summary.FullName != fullName {
			break
		}
		found, key = key, e.source
	}
	return found
}

// resourceKey returns the provider_config key of the configuration a
// resource of module m uses under the local name and alias given.
func (pcs providerConfigEntries) resourceKey(m *config.Module, name, alias string) string {
	local := name
	if alias != "" {
		local += "." + alias
	}
	key := providerConfigKey(m.Path, local)
	if e, ok := pcs[key]; ok && e.source != "" {
		if _, ok := pcs[e.source]; ok {
			return e.source
		}
	}
	return key
}

// shallowRequirements returns the providers module m itself requires
// (required_providers, provider blocks, resource types), each with the
// version constraints m states for it.
func shallowRequirements(m *config.Module) map[addrs.Provider]getproviders.Constraints {
	reqs := map[addrs.Provider]getproviders.Constraints{}
	add := func(p addrs.Provider, version string) {
		cs := reqs[p]
		if version != "" {
			if more, err := getproviders.ParseConstraints(version); err == nil {
				cs = cs.Merge(more)
			}
		}
		reqs[p] = cs
	}
	for _, name := range sortedMapKeys(m.Terraform.RequiredProviders) {
		rp := m.Terraform.RequiredProviders[name]
		add(rp.Provider, rp.Version)
	}
	for _, r := range m.Resources() {
		name, _ := m.ProviderLocalName(r)
		if fqn := m.ProviderFor(name); !hasProvider(reqs, fqn) {
			add(fqn, "")
		}
	}
	for _, key := range sortedMapKeys(m.ProviderConfigs) {
		pc := m.ProviderConfigs[key]
		add(m.ProviderFor(pc.Name), pc.Version)
	}
	return reqs
}

func hasProvider(reqs map[addrs.Provider]getproviders.Constraints, p addrs.Provider) bool {
	_, ok := reqs[p]
	return ok
}

func sortedProviders(reqs map[addrs.Provider]getproviders.Constraints) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		out = append(out, p)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return out
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// moduleSummary describes module m and, through its calls, the modules
// below it.
func moduleSummary(m *config.Module, schemas ui.ProviderSchemas, pcs providerConfigEntries) ui.ModuleConfigSummary {
	var out ui.ModuleConfigSummary
	for _, r := range m.Resources() {
		out.Resources = append(out.Resources, resourceSummary(m, r, schemas, pcs))
	}
	slices.SortFunc(out.Resources, func(a, b ui.ResourceConfigSummary) int { return strings.Compare(a.Address, b.Address) })
	if len(m.Outputs) > 0 {
		out.Outputs = map[string]ui.OutputConfigSummary{}
	}
	for name, o := range m.Outputs {
		out.Outputs[name] = ui.OutputConfigSummary{
			Sensitive: o.Sensitive, Ephemeral: o.Ephemeral, Expression: expressionJSON(o.Expr),
			DependsOn: dependsOn(o.DependsOn), Description: o.Description,
		}
	}
	if len(m.Variables) > 0 {
		out.Variables = map[string]ui.VariableConfigSummary{}
	}
	for name, v := range m.Variables {
		vs := ui.VariableConfigSummary{Description: v.Description, Sensitive: v.Sensitive, Ephemeral: v.Ephemeral}
		if v.Default != cty.NilVal {
			vs.Default = constantJSON(v.Default)
		}
		out.Variables[name] = vs
	}
	if len(m.ModuleCalls) > 0 {
		out.ModuleCalls = map[string]ui.ModuleCallSummary{}
	}
	for name, call := range m.ModuleCalls {
		out.ModuleCalls[name] = moduleCallSummary(call, m.Children[name], schemas, pcs)
	}
	return out
}

func resourceSummary(m *config.Module, r *config.Resource, schemas ui.ProviderSchemas, pcs providerConfigEntries) ui.ResourceConfigSummary {
	name, alias := m.ProviderLocalName(r)
	rs := ui.ResourceConfigSummary{
		Address: r.Addr.String(), Mode: r.Addr.Mode.String(), Type: r.Addr.Type, Name: r.Addr.Name,
		ProviderConfigKey: pcs.resourceKey(m, name, alias), DependsOn: dependsOn(r.DependsOn),
	}
	rs.CountExpression, rs.ForEachExpression = repetitionJSON(r.Count, r.ForEach)
	if sch, ok := schemas.ResourceTypeSchema(m.ProviderFor(name), r.Addr.Mode, r.Addr.Type); ok {
		rs.SchemaVersion = uint64(sch.Version)
		rs.Expressions = bodyExpressions(r.Config, sch.Block)
	}
	return rs
}

func moduleCallSummary(call *config.ModuleCall, child *config.Module, schemas ui.ProviderSchemas, pcs providerConfigEntries) ui.ModuleCallSummary {
	cs := ui.ModuleCallSummary{Source: call.Source, VersionConstraint: call.Version, DependsOn: dependsOn(call.DependsOn)}
	cs.CountExpression, cs.ForEachExpression = repetitionJSON(call.Count, call.ForEach)
	if child == nil {
		return cs
	}
	// The call's arguments are the child's input variables.
	inputs := &provider.Block{Attributes: map[string]*provider.Attribute{}}
	for name, v := range child.Variables {
		inputs.Attributes[name] = &provider.Attribute{Type: cty.DynamicPseudoType, Required: v.Required(), Optional: !v.Required()}
	}
	cs.Expressions = bodyExpressions(call.Config, inputs)
	cs.Module = moduleSummary(child, schemas, pcs)
	return cs
}

// repetitionJSON returns the count_expression or for_each_expression:
// count's when it says anything (a constant or references), else
// for_each's when that does; nil for neither.
func repetitionJSON(count, forEach hcl.Expression) (countJSON, forEachJSON json.RawMessage) {
	if count != nil {
		if j := expressionJSON(count); !emptyExpression(j) {
			return j, nil
		}
	}
	if forEach != nil {
		if j := expressionJSON(forEach); !emptyExpression(j) {
			return nil, j
		}
	}
	return nil, nil
}

func emptyExpression(j json.RawMessage) bool { return string(j) == "{}" }

// dependsOn renders depends_on entries as the addresses they name:
// module.net, terraform_data.a, data.x.y. An entry that is not a valid
// reference is rendered as "".
func dependsOn(travs []hcl.Traversal) []string {
	if len(travs) == 0 {
		return nil
	}
	out := make([]string, len(travs))
	for i, t := range travs {
		if ref, ds := lang.ParseRef(t); !ds.HasErrors() && ref != nil {
			out[i] = ref.String()
		}
	}
	return out
}

// bodyExpressions describes the arguments of body that blk declares: each
// attribute as expressionJSON gives it, each nested block as an object of
// its own arguments (single and group blocks) or an array of such objects
// (list, set and map blocks, labels dropped). Anything blk does not
// declare, "dynamic" blocks included, is left out; nil when nothing is
// left or blk is nil.
func bodyExpressions(body hcl.Body, blk *provider.Block) map[string]json.RawMessage {
	if body == nil || blk == nil {
		return nil
	}
	exprs := bodyExpressionMap(body, blk)
	if len(exprs) == 0 {
		return nil
	}
	return exprs
}

func bodyExpressionMap(body hcl.Body, blk *provider.Block) map[string]json.RawMessage {
	content, _, _ := body.PartialContent(hcldec.ImpliedSchema(blk.DecoderSpec()))
	out := map[string]json.RawMessage{}
	if content == nil {
		return out
	}
	for name, attr := range content.Attributes {
		out[name] = expressionJSON(attr.Expr)
	}
	lists := map[string][]map[string]json.RawMessage{}
	for _, b := range content.Blocks {
		nb := blk.BlockTypes[b.Type]
		if nb == nil {
			continue
		}
		inner := bodyExpressionMap(b.Body, &nb.Block)
		switch nb.Nesting {
		case provider.NestingSingle, provider.NestingGroup:
			out[b.Type] = mustJSON(inner)
		case provider.NestingList, provider.NestingSet, provider.NestingMap:
			lists[b.Type] = append(lists[b.Type], inner)
		}
	}
	for name, l := range lists {
		out[name] = mustJSON(l)
	}
	return out
}

// expressionJSON describes an unevaluated expression: {"constant_value": V}
// when it evaluates without any context (a literal), {"references": [...]}
// listing what it refers to (see referenceStrings), both, or {} for
// neither (a function call on literals, say).
func expressionJSON(expr hcl.Expression) json.RawMessage {
	var out struct {
		ConstantValue json.RawMessage `json:"constant_value,omitempty"`
		References    []string        `json:"references,omitempty"`
	}
	if expr == nil {
		return mustJSON(out)
	}
	if v, _ := expr.Value(nil); v != cty.NilVal && v.IsWhollyKnown() && !v.ContainsMarked() {
		out.ConstantValue = constantJSON(v)
	}
	refs, _ := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		out.References = append(out.References, referenceStrings(ref)...)
	}
	return mustJSON(out)
}

// referenceStrings lists one reference as Terraform's JSON formats do:
// the whole traversal, then shorter and shorter prefixes down to the
// referenced object, then, for an instance of a resource or module call,
// the resource or call itself, and for a module output, the module
// (instance) it belongs to: terraform_data.a[0].output.name gives
// terraform_data.a[0].output.name, terraform_data.a[0].output,
// terraform_data.a[0], terraform_data.a.
func referenceStrings(ref *lang.Reference) []string {
	subject := ref.String()
	var out []string
	for n := len(ref.Remaining); n > 0; n-- {
		out = append(out, subject+traversalSuffix(ref.Remaining[:n]))
	}
	out = append(out, subject)
	switch ref.Kind {
	case lang.ResourceRef:
		if ref.KeyGiven {
			out = append(out, ref.Resource.String())
		}
	case lang.ModuleCallOutput:
		call := "module." + ref.Name
		switch {
		case ref.Output != "" && ref.KeyGiven:
			out = append(out, call+ref.Key.String())
		case ref.Output != "":
			out = append(out, call)
		case ref.KeyGiven:
			out = append(out, call)
		}
	}
	return out
}

// traversalSuffix renders relative traversal steps: .name for attributes,
// [KEY] for index keys of primitive type (strings quoted, numbers in at
// most ten significant digits), [...] for others.
func traversalSuffix(steps hcl.Traversal) string {
	var b strings.Builder
	for _, step := range steps {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + indexKeyString(s.Key) + "]")
		}
	}
	return b.String()
}

func indexKeyString(k cty.Value) string {
	switch {
	case k.IsMarked():
		return "(sensitive value)"
	case !k.Type().IsPrimitiveType():
		return "..."
	case k.IsNull():
		return "null"
	case !k.IsKnown():
		return "(not yet known)"
	case k.Type() == cty.Bool:
		return fmt.Sprint(k.True())
	case k.Type() == cty.Number:
		return k.AsBigFloat().Text('g', 10)
	}
	return fmt.Sprintf("%q", k.AsString())
}

// constantJSON encodes a known value in its own type.
func constantJSON(v cty.Value) json.RawMessage {
	j, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil
	}
	return j
}

// mustJSON encodes values built here of maps, slices, strings and raw
// JSON, which cannot fail to encode.
func mustJSON(v any) json.RawMessage {
	j, _ := json.Marshal(v)
	return j
}

// configSchemas adds to schemas those of every provider the configuration
// tree below root uses that it lacks; a provider whose schema cannot be
// had is left out.
func configSchemas(get schemaGetter, root *config.Module, schemas ui.ProviderSchemas) {
	for _, m := range root.AllModules() {
		var fqns []addrs.Provider
		for _, r := range m.Resources() {
			name, _ := m.ProviderLocalName(r)
			fqns = append(fqns, m.ProviderFor(name))
		}
		for _, pc := range m.ProviderConfigs {
			fqns = append(fqns, m.ProviderFor(pc.Name))
		}
		for _, fqn := range fqns {
			if _, ok := schemas[fqn]; ok {
				continue
			}
			if s, ok := get(fqn); ok {
				schemas[fqn] = s
			}
		}
	}
}

// schemaGetter returns a provider's schemas, false when they cannot be had.
type schemaGetter func(addrs.Provider) (*provider.Schemas, bool)
