package lang

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/parallel"
)

// refScope says what a reference may name where it is written.
type refScope struct {
	hasCount, hasForEach bool
	selfAllowed          bool
	// self is the resource whose configuration this is; a reference to it
	// is reported with selfSummary. Nil where that does not apply.
	self        *addrs.Resource
	selfSummary string
	// check is the name of the check block the expression is written in;
	// only there may a scoped data source be referred to.
	check string
}

// CheckReferences checks every reference in m statically, without
// evaluating anything: each must parse, name something declared in the
// module, and be allowed where it is written (count.index only with count,
// each.* only with for_each, self only in postconditions, provisioners and
// connections, no resource referring to itself, depends_on naming whole
// objects, replace_triggered_by naming a managed resource). Diagnostics are
// sorted by source position. Cycles between locals are left to the graph.
//
// Every module of the tree below m is checked, with its module calls'
// arguments against the called module's variables.
func CheckReferences(m *config.Module) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, mod := range m.AllModules() {
		ds = append(ds, checkModule(mod)...)
	}
	return ds
}

func checkModule(m *config.Module) diag.Diagnostics {
	// Resources, the bulk of a large configuration, are checked on every
	// core; their diagnostics are gathered in resource order.
	resources := m.Resources()
	perResource := make([]diag.Diagnostics, len(resources))
	parallel.For(len(resources), func(i int) {
		rc := &checker{m: m}
		rc.resource(resources[i])
		perResource[i] = rc.diags
	})
	c := &checker{m: m}
	for _, ds := range perResource {
		c.diags = append(c.diags, ds...)
	}
	for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
		c.expr(m.Locals[name].Expr, refScope{})
	}
	for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
		o := m.Outputs[name]
		c.expr(o.Expr, refScope{})
		for _, cr := range o.Preconditions {
			c.checkRule(cr, refScope{})
		}
		c.dependsOn(o.DependsOn)
	}
	for _, chk := range m.Checks {
		for _, cr := range chk.Asserts {
			c.checkRule(cr, refScope{check: chk.Name})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
		for _, cr := range m.Variables[name].Validations {
			c.checkRule(cr, refScope{})
		}
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		p := m.ProviderConfigs[key]
		c.expr(p.ForEach, refScope{})
		c.traversals(bodyTraversals(p.Config), refScope{hasForEach: p.ForEach != nil})
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc := m.ModuleCalls[name]
		c.expr(mc.Count, refScope{})
		c.expr(mc.ForEach, refScope{})
		c.expr(mc.Enabled, refScope{})
		c.traversals(bodyTraversals(mc.Config), refScope{hasCount: mc.Count != nil, hasForEach: mc.ForEach != nil})
		for _, pp := range mc.Providers {
			c.expr(pp.InParent.KeyExpr, refScope{hasCount: mc.Count != nil, hasForEach: mc.ForEach != nil})
		}
		c.dependsOn(mc.DependsOn)
		if child := m.Children[name]; child != nil {
			c.callArguments(mc, child)
		}
	}
	c.actions()
	c.lists()
	sort.SliceStable(c.diags, func(i, j int) bool { return lessSubject(c.diags[i].Subject, c.diags[j].Subject) })
	return c.diags
}

// actions checks the references of action blocks (Terraform 1.14) and of
// the conditions of the resources' action triggers.
func (c *checker) actions() {
	keys := slices.SortedFunc(maps.Keys(c.m.Actions), func(a, b addrs.Action) int { return strings.Compare(a.String(), b.String()) })
	for _, addr := range keys {
		a := c.m.Actions[addr]
		c.expr(a.Count, refScope{})
		c.expr(a.ForEach, refScope{})
		// self is the object of the resource instance whose trigger
		// invokes the action, as in Terraform.
		c.traversals(bodyTraversals(a.Config), refScope{hasCount: a.Count != nil, hasForEach: a.ForEach != nil, selfAllowed: true})
	}
	for _, r := range c.m.Resources() {
		if r.Managed == nil {
			continue
		}
		for _, at := range r.Managed.ActionTriggers {
			c.expr(at.Condition, refScope{hasCount: r.Count != nil, hasForEach: r.ForEach != nil})
		}
	}
}

type checker struct {
	m     *config.Module
	diags diag.Diagnostics
}

func (c *checker) resource(r *config.Resource) {
	addr := r.Addr
	inst := refScope{hasCount: r.Count != nil, hasForEach: r.ForEach != nil, check: r.Check}
	withSelf := func(sc refScope, summary string, selfAllowed bool) refScope {
		sc.self, sc.selfSummary, sc.selfAllowed = &addr, summary, selfAllowed
		return sc
	}

	// Nothing of a resource block may refer to the resource itself: its
	// count, for_each, provider key, arguments and replace_triggered_by
	// would wait for their own result.
	selfRef := withSelf(inst, "Self-referential block", false)
	c.expr(r.Count, withSelf(refScope{}, "Self-referential block", false))
	c.expr(r.ForEach, withSelf(refScope{}, "Self-referential block", false))
	c.expr(r.Enabled, withSelf(refScope{}, "Self-referential block", false))
	if r.ProviderConfigRef != nil {
		c.expr(r.ProviderConfigRef.KeyExpr, selfRef)
	}
	c.traversals(cachedBodyTraversals(r.Config), selfRef)
	c.dependsOn(r.DependsOn)
	// A condition naming its own resource is reported when the
	// configuration loads (config.conditionSelfReferences).
	for _, cr := range r.Preconditions {
		c.checkRule(cr, inst)
	}
	post := inst
	post.selfAllowed = true
	for _, cr := range r.Postconditions {
		c.checkRule(cr, post)
	}
	if r.Managed != nil {
		for _, expr := range r.Managed.ReplaceTriggeredBy {
			c.replaceTriggeredBy(expr, selfRef)
		}
		c.preventDestroy(r.Managed.PreventDestroy, withSelf(refScope{}, "Self-referential block", false))
	}
	prov := withSelf(inst, "Self-referential block", true)
	if r.Connection != nil {
		c.traversals(bodyTraversals(r.Connection.Config), prov)
	}
	for _, p := range r.Provisioners {
		c.traversals(bodyTraversals(p.Config), prov)
		if p.Connection != nil {
			c.traversals(bodyTraversals(p.Connection.Config), prov)
		}
	}
}

func (c *checker) expr(expr hcl.Expression, sc refScope) {
	if expr != nil {
		c.traversals(expr.Variables(), sc)
	}
}

func (c *checker) checkRule(cr *config.CheckRule, sc refScope) {
	c.expr(cr.Condition, sc)
	c.expr(cr.ErrorMessage, sc)
}

func (c *checker) traversals(travs []hcl.Traversal, sc refScope) {
	for _, t := range travs {
		ref, diags := ParseRef(t)
		c.diags = append(c.diags, diags...)
		if ref != nil {
			c.ref(ref, sc)
		}
	}
}

func (c *checker) dependsOn(travs []hcl.Traversal) {
	for _, t := range travs {
		ref, diags := ParseRef(t)
		c.diags = append(c.diags, diags...)
		if ref == nil {
			continue
		}
		if len(ref.Remaining) != 0 {
			c.diags = append(c.diags, diag.At(ref.Remaining.SourceRange(), "Invalid depends_on reference",
				"References in depends_on must be to a whole object (resource, etc), not to an attribute of an object."))
			continue
		}
		c.ref(ref, refScope{})
	}
}

func (c *checker) replaceTriggeredBy(expr hcl.Expression, sc refScope) {
	refs, ds := triggerShape(expr)
	c.diags = append(c.diags, ds...)
	for _, ref := range refs {
		c.ref(ref, sc)
	}
}

// CheckTriggerShape checks what an entry of replace_triggered_by may be, as
// OpenTofu checks it while loading the configuration: a reference to one
// managed resource (or an instance or attribute of it), with count.index and
// each.key only. Whether the resource exists is checked with the other
// references (CheckReferences).
func CheckTriggerShape(expr hcl.Expression) diag.Diagnostics {
	_, ds := triggerShape(expr)
	return ds
}

// triggerShape is CheckTriggerShape, with the references of expr to check
// further: its resource, count.index and each.key.
func triggerShape(expr hcl.Expression) ([]*Reference, diag.Diagnostics) {
	rng := expr.Range()
	if !isReferenceShape(expr) {
		return nil, diag.Diagnostics{diag.At(rng, "Invalid replace_triggered_by expression",
			"Unexpected expression found in replace_triggered_by.")}
	}
	var out diag.Diagnostics
	refs, diags := ReferencesInExpr(expr)
	metaProblem := triggerMetaAttrProblem(expr)
	if metaProblem != nil {
		// Reported as OpenTofu reports it, once; the resources the entry
		// names are still counted.
		diags = slices.DeleteFunc(diags, func(d diag.Diagnostic) bool {
			return d.Summary == `Invalid "each" attribute` || d.Summary == `Invalid "count" attribute`
		})
		out = append(out, *metaProblem)
		refs = slices.DeleteFunc(refs, func(r *Reference) bool { return r.Kind == EachValue })
	}
	out = append(out, diags...)
	if diags.HasErrors() {
		return nil, out
	}
	var follow []*Reference
	resources := 0
	for _, ref := range refs {
		switch ref.Kind {
		case ResourceRef:
			resources++
			if ref.Resource.Mode != addrs.Managed {
				out = append(out, diag.At(rng, "Invalid replace_triggered_by expression",
					fmt.Sprintf("Only managed resources can be used in replace_triggered_by; %s is a data resource.", ref.Resource)))
				continue
			}
		case CountIndex, EachKey:
		case EachValue:
			out = append(out, diag.At(rng, "Invalid each reference in replace_triggered_by expression",
				"Only each.key may be used in replace_triggered_by."))
			continue
		default:
			out = append(out, diag.At(rng, "Invalid reference in replace_triggered_by expression",
				"Only resources, count.index, and each.key may be used in replace_triggered_by."))
			continue
		}
		follow = append(follow, ref)
	}
	switch {
	case resources == 0:
		out = append(out, diag.At(rng, "Invalid replace_triggered_by expression",
			"Missing resource reference in replace_triggered_by expression."))
	case resources > 1:
		out = append(out, diag.At(rng, "Invalid replace_triggered_by expression",
			"Multiple resource references in replace_triggered_by expression."))
	}
	return follow, out
}

// preventDestroy checks the references of a prevent_destroy expression
// (OpenTofu 1.12): anything of the module but the instance's own count and
// each, which objects already gone from the configuration no longer have.
func (c *checker) preventDestroy(expr hcl.Expression, sc refScope) {
	if expr == nil {
		return
	}
	for _, t := range expr.Variables() {
		ref, diags := ParseRef(t)
		c.diags = append(c.diags, diags...)
		if ref == nil {
			continue
		}
		switch ref.Kind {
		case CountIndex, EachKey, EachValue:
			c.diags = append(c.diags, diag.At(ref.Range, "Invalid reference in prevent_destroy",
				fmt.Sprintf("A prevent_destroy argument cannot refer to %s, because rig needs to evaluate this argument for instances that have already been removed from the configuration and so whose per-instance data is no longer available.", t.RootName()+"."+traversalAttr(t))))
			continue
		}
		c.ref(ref, sc)
	}
}

// traversalAttr returns the name of t's first attribute step ("" if none).
func traversalAttr(t hcl.Traversal) string {
	if len(t) > 1 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			return a.Name
		}
	}
	return ""
}

// isReferenceShape reports whether expr is a reference with optional index
// and attribute steps (terraform_data.a, terraform_data.a[count.index].id),
// as replace_triggered_by requires. Non-native expressions are accepted.
func isReferenceShape(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return true
	case *hclsyntax.IndexExpr:
		return isReferenceShape(e.Collection)
	case *hclsyntax.RelativeTraversalExpr:
		return isReferenceShape(e.Source)
	case hclsyntax.Expression:
		return false
	}
	return true
}

// ref checks one reference against the module and the scope it appears in.
func (c *checker) ref(ref *Reference, sc refScope) {
	m := c.m
	add := func(summary, detail string) { c.diags = append(c.diags, diag.At(ref.Range, summary, detail)) }
	switch ref.Kind {
	case ResourceRef:
		addr := ref.Resource
		if addr.Mode == addrs.List {
			c.listRef(ref, sc)
			return
		}
		cfg := m.ResourceByAddr(addr)
		if cfg == nil {
			mode := "managed"
			if addr.Mode == addrs.Data {
				mode = "data"
			} else if addr.Mode == addrs.Ephemeral {
				mode = "ephemeral"
			}
			add("Reference to undeclared resource",
				fmt.Sprintf("There is no %s resource %q %q definition in %s.%s", mode, addr.Type, addr.Name, moduleDisplay(m), otherModeSuggestion(m, addr)))
			return
		}
		if sc.self != nil && *sc.self == addr {
			add(sc.selfSummary, fmt.Sprintf("Configuration for %s may not refer to itself.", addr))
			return
		}
		if cfg.Check != "" && cfg.Check != sc.check {
			add("Reference to scoped resource", fmt.Sprintf("The referenced data resource %q %q is not available from this context.", addr.Type, addr.Name))
			return
		}
		repeated := cfg.Count != nil || cfg.ForEach != nil
		switch {
		case ref.KeyGiven && !repeated:
			add("Unexpected resource instance key",
				fmt.Sprintf(`Because %s does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, addr))
			return
		case !ref.KeyGiven && len(ref.Remaining) > 0 && cfg.Count != nil:
			add("Missing resource instance key",
				fmt.Sprintf("Because %s has \"count\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[count.index]", addr, addr))
			return
		case !ref.KeyGiven && len(ref.Remaining) > 0 && cfg.ForEach != nil:
			add("Missing resource instance key",
				fmt.Sprintf("Because %s has \"for_each\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[each.key]", addr, addr))
			return
		}
		if len(ref.Remaining) > 0 {
			if step, ok := ref.Remaining[0].(hcl.TraverseAttr); ok && step.Name == "count" {
				add("Invalid resource count attribute",
					fmt.Sprintf(`The special "count" attribute is no longer supported after OpenTofu v0.12. Instead, use length(%s) to count resource instances.`, addr))
			}
		}
	case InputVariable:
		if _, ok := m.Variables[ref.Name]; !ok {
			suggestion := nameSuggestion(ref.Name, slices.Sorted(maps.Keys(m.Variables)))
			if suggestion != "" {
				suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
			} else {
				suggestion = fmt.Sprintf(" This variable can be declared with a variable %q {} block.", ref.Name)
			}
			add("Reference to undeclared input variable",
				fmt.Sprintf("An input variable with the name %q has not been declared.%s", ref.Name, suggestion))
		}
	case LocalValue:
		if _, ok := m.Locals[ref.Name]; !ok {
			suggestion := nameSuggestion(ref.Name, slices.Sorted(maps.Keys(m.Locals)))
			if suggestion != "" {
				suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
			}
			add("Reference to undeclared local value",
				fmt.Sprintf("A local value with the name %q has not been declared.%s", ref.Name, suggestion))
		}
	case ModuleCallOutput:
		if _, ok := m.ModuleCalls[ref.Name]; !ok {
			suggestion := nameSuggestion(ref.Name, slices.Sorted(maps.Keys(m.ModuleCalls)))
			if suggestion != "" {
				suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
			}
			add("Reference to undeclared module",
				fmt.Sprintf("No module call named %q is declared in %s.%s", ref.Name, moduleDisplay(m), suggestion))
			return
		}
		child := m.Children[ref.Name]
		if child == nil || ref.Output == "" {
			return
		}
		if _, ok := child.Outputs[ref.Output]; !ok {
			suggestion := nameSuggestion(ref.Output, slices.Sorted(maps.Keys(child.Outputs)))
			if suggestion != "" {
				suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
			}
			add("Reference to undeclared output value",
				fmt.Sprintf("An output value with the name %q has not been declared in %s.%s", ref.Output, child.Path, suggestion))
		}
	case CountIndex:
		if !sc.hasCount {
			add(`Reference to "count" in non-counted context`,
				`The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`)
		}
	case EachKey, EachValue:
		if !sc.hasForEach {
			add(`Reference to "each" in context without for_each`,
				`The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`)
		}
	case Self:
		if !sc.selfAllowed {
			add(`Invalid "self" reference`,
				`The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`)
		}
	}
}

// moduleDisplay names a module in messages: "the root module" or its path.
func moduleDisplay(m *config.Module) string {
	if m.Path.IsRoot() {
		return "the root module"
	}
	return m.Path.String()
}

// callArguments checks a module call's arguments against the variables the
// called module declares: each argument must name one, and each required
// variable must have one.
func (c *checker) callArguments(mc *config.ModuleCall, child *config.Module) {
	attrs, diags := mc.Config.JustAttributes()
	c.diags = append(c.diags, diag.FromHCL(diags)...)
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if _, ok := child.Variables[name]; ok {
			continue
		}
		a := attrs[name]
		suggestion := nameSuggestion(name, slices.Sorted(maps.Keys(child.Variables)))
		if suggestion != "" {
			suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
		}
		c.diags = append(c.diags, diag.At(a.NameRange, "Unsupported argument",
			fmt.Sprintf("An argument named %q is not expected here.%s", name, suggestion)))
	}
	for _, name := range slices.Sorted(maps.Keys(child.Variables)) {
		if _, ok := attrs[name]; ok || !child.Variables[name].Required() {
			continue
		}
		c.diags = append(c.diags, diag.At(mc.DeclRange, "Missing required argument",
			fmt.Sprintf("The argument %q is required, but no definition was found.", name)))
	}
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if child.QuietDeprecations() {
			break
		}
		if v := child.Variables[name]; v != nil && v.Deprecated != "" {
			c.diags = append(c.diags, deprecatedArgument(v, attrs[name], child))
		}
	}
}

func lessSubject(a, b *hcl.Range) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	case a.Filename != b.Filename:
		return a.Filename < b.Filename
	}
	return a.Start.Byte < b.Start.Byte
}

// triggerMetaAttrProblem reports a replace_triggered_by entry that uses an
// attribute of each or count other than each.key and count.index (each.val,
// count.foo) as OpenTofu does, rather than as an unknown attribute; nil when
// there is none.
func triggerMetaAttrProblem(expr hcl.Expression) *diag.Diagnostic {
	for _, t := range expr.Variables() {
		if len(t) < 2 {
			continue
		}
		attr, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		switch {
		case t.RootName() == "each" && attr.Name != "key":
			d := diag.At(expr.Range(), "Invalid each reference in replace_triggered_by expression",
				"Only each.key may be used in replace_triggered_by.")
			return &d
		case t.RootName() == "count" && attr.Name != "index":
			d := diag.At(expr.Range(), "Invalid count reference in replace_triggered_by expression",
				"Only count.index may be used in replace_triggered_by.")
			return &d
		}
	}
	return nil
}

// otherModeSuggestion is OpenTofu's hint for a reference to an undeclared
// resource when one of another mode has its type and name (data. or
// ephemeral. forgotten, or written where it does not belong); "" when none.
func otherModeSuggestion(m *config.Module, addr addrs.Resource) string {
	var modes []addrs.ResourceMode
	switch addr.Mode {
	case addrs.Managed:
		modes = []addrs.ResourceMode{addrs.Data, addrs.Ephemeral}
	case addrs.Data:
		modes = []addrs.ResourceMode{addrs.Managed, addrs.Ephemeral}
	case addrs.Ephemeral:
		modes = []addrs.ResourceMode{addrs.Managed, addrs.Data}
	}
	for _, mode := range modes {
		alt := addrs.Resource{Mode: mode, Type: addr.Type, Name: addr.Name}
		if m.ResourceByAddr(alt) == nil {
			continue
		}
		block := "resource"
		switch mode {
		case addrs.Data:
			block = "data"
		case addrs.Ephemeral:
			block = "ephemeral"
		}
		return fmt.Sprintf("\n\nDid you mean the %s resource %s?", block, alt)
	}
	return ""
}
