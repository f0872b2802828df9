package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// Action is an action block (Terraform 1.14): an operation of a provider
// that is not a resource, run when a resource's action_trigger fires or
// when invoked.
type Action struct {
	Addr addrs.Action
	// Config is the config block's body, nil when there is none; it is
	// decoded by the provider's action schema.
	Config  hcl.Body
	Count   hcl.Expression
	ForEach hcl.Expression
	// Provider is the provider argument, nil when the action uses the
	// default configuration of the provider its type implies.
	Provider  *ProviderConfigRef
	DeclRange hcl.Range
	TypeRange hcl.Range
}

// ActionProviderName returns the local name of the provider action a
// uses: its provider argument's, or the one its type implies (the type's
// first word).
func ActionProviderName(a *Action) string {
	if a.Provider != nil {
		return a.Provider.Name
	}
	if i := strings.IndexByte(a.Addr.Type, '_'); i > 0 {
		return a.Addr.Type[:i]
	}
	return a.Addr.Type
}

// ActionEvent is an event of a resource's lifecycle an action_trigger
// fires on.
type ActionEvent uint8

// The events, as action_trigger's events argument names them.
const (
	BeforeCreate ActionEvent = iota + 1
	AfterCreate
	BeforeUpdate
	AfterUpdate
	BeforeDestroy
	AfterDestroy
)

var actionEventNames = []string{"", "before_create", "after_create", "before_update", "after_update", "before_destroy", "after_destroy"}

// String returns the event's keyword.
func (e ActionEvent) String() string {
	if int(e) < len(actionEventNames) {
		return actionEventNames[e]
	}
	return fmt.Sprintf("ActionEvent(%d)", e)
}

// ActionOnFailure is what an action_trigger's on_failure says to do when
// an action fails.
type ActionOnFailure uint8

// The on_failure keywords (Terraform 1.16); halt is the default.
const (
	OnFailureHalt ActionOnFailure = iota
	OnFailureTaint
	OnFailureContinue
)

// ActionTrigger is an action_trigger block of a resource's lifecycle: the
// actions to run, in order, on each of its events when its condition
// holds.
type ActionTrigger struct {
	Events []ActionEvent
	// Condition is nil when there is none (always).
	Condition hcl.Expression
	Actions   []ActionRef
	OnFailure ActionOnFailure
	DeclRange hcl.Range
}

// ActionRef is one entry of an action_trigger's actions: a reference to
// an action of the same module, perhaps with an instance key that may use
// count.index or each.key.
type ActionRef struct {
	Action addrs.Action
	Expr   hcl.Expression
}

var actionBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "config"}},
}

var actionTriggerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "events", Required: true}, {Name: "condition"},
		{Name: "actions", Required: true}, {Name: "on_failure"},
	},
}

func decodeActionBlock(block *hcl.Block) (*Action, hcl.Diagnostics) {
	a := &Action{
		Addr:      addrs.Action{Type: block.Labels[0], Name: block.Labels[1]},
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
	}
	var diags hcl.Diagnostics
	if !hclsyntax.ValidIdentifier(a.Addr.Type) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid action type name", Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	if !hclsyntax.ValidIdentifier(a.Addr.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid action name", Detail: badIdentifierDetail, Subject: block.LabelRanges[1].Ptr()})
	}
	content, more := block.Body.Content(actionBlockSchema)
	diags = append(diags, more...)
	if attr, ok := content.Attributes["count"]; ok {
		a.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		a.ForEach = attr.Expr
		if a.Count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, more := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, more...)
		a.Provider = ref
	}
	for _, b := range content.Blocks {
		if a.Config != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate config block",
				Detail:   "An action must contain only one nested \"config\" block.",
				Subject:  b.DefRange.Ptr(),
			})
			continue
		}
		a.Config = b.Body
	}
	return a, diags
}

func decodeActionTrigger(block *hcl.Block) (*ActionTrigger, hcl.Diagnostics) {
	at := &ActionTrigger{DeclRange: block.DefRange}
	content, diags := block.Body.Content(actionTriggerSchema)
	if attr, ok := content.Attributes["condition"]; ok {
		at.Condition = attr.Expr
	}
	if attr, ok := content.Attributes["events"]; ok {
		exprs, more := hcl.ExprList(attr.Expr)
		diags = append(diags, more...)
		for _, expr := range exprs {
			kw := hcl.ExprAsKeyword(expr)
			i := slices.Index(actionEventNames, kw)
			if kw == "" || i <= 0 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Invalid \"event\" value %s", kw),
					Detail:   "The \"event\" argument supports the following values: before_create, after_create, before_update, after_update, before_destroy, after_destroy.",
					Subject:  expr.Range().Ptr(),
				})
				continue
			}
			ev := ActionEvent(i)
			if slices.Contains(at.Events, ev) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate %q event", kw),
					Detail:   "The event is already defined in this action_trigger block.",
					Subject:  expr.Range().Ptr(),
				})
				continue
			}
			at.Events = append(at.Events, ev)
		}
	}
	if attr, ok := content.Attributes["actions"]; ok {
		refs, more := decodeActionRefs(attr.Expr)
		diags = append(diags, more...)
		at.Actions = refs
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "halt":
			at.OnFailure = OnFailureHalt
		case "taint":
			at.OnFailure = OnFailureTaint
		case "continue":
			at.OnFailure = OnFailureContinue
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"on_failure\" keyword",
				Detail:   "The \"on_failure\" argument requires one of the following keywords: halt, taint or continue.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if _, ok := content.Attributes["actions"]; ok && len(at.Actions) == 0 {
		diags = append(diags, noActionsDiag(block.DefRange))
	}
	if _, ok := content.Attributes["events"]; ok && len(at.Events) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "No events specified",
			Detail:   "At least one event must be specified for an action_trigger.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return at, diags
}

func noActionsDiag(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No actions specified",
		Detail:   "At least one action must be specified for an action_trigger.",
		Subject:  rng.Ptr(),
	}
}

// decodeActionRefs decodes an action_trigger's actions: each entry must
// refer to exactly one action of the module (action.TYPE.NAME, with an
// index that may use count.index or each.key), and to nothing else.
func decodeActionRefs(expr hcl.Expression) ([]ActionRef, hcl.Diagnostics) {
	isJSON := hcljson.IsJSONExpression(expr)
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var refs []ActionRef
entries:
	for _, e := range exprs {
		if isJSON {
			native, more := jsonExprAsNative(e)
			diags = append(diags, more...)
			if more.HasErrors() {
				continue
			}
			e = native
		}
		var found []addrs.Action
		for _, trav := range e.Variables() {
			switch trav.RootName() {
			case "action":
				a, ok := actionOfTraversal(trav)
				if !ok {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid action reference",
						Detail:   "An action is referred to as action.TYPE.NAME, optionally with an instance key; actions have no attributes.",
						Subject:  trav.SourceRange().Ptr(),
					})
					continue entries
				}
				found = append(found, a)
			case "count", "each":
			case "module":
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference to action outside this module",
					Detail:   "Actions can only be referenced in the module they are declared in.",
					Subject:  e.Range().Ptr(),
				})
				continue entries
			default:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid action argument inside action_triggers",
					Detail:   "action_triggers.actions must only refer to actions in the current module, count.index, or each.key.",
					Subject:  e.Range().Ptr(),
				})
				continue entries
			}
		}
		switch len(found) {
		case 0:
			diags = append(diags, noActionsDiag(e.Range()))
		case 1:
			refs = append(refs, ActionRef{Action: found[0], Expr: e})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid action expression",
				Detail:   "Multiple action references in actions expression.",
				Subject:  e.Range().Ptr(),
			})
		}
	}
	return refs, diags
}

// actionOfTraversal returns the action a traversal rooted at "action"
// names: action.TYPE.NAME, then at most an index.
func actionOfTraversal(trav hcl.Traversal) (addrs.Action, bool) {
	if len(trav) < 3 || len(trav) > 4 {
		return addrs.Action{}, false
	}
	t, ok1 := trav[1].(hcl.TraverseAttr)
	n, ok2 := trav[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		return addrs.Action{}, false
	}
	if len(trav) == 4 {
		if _, ok := trav[3].(hcl.TraverseIndex); !ok {
			return addrs.Action{}, false
		}
	}
	return addrs.Action{Type: t.Name, Name: n.Name}, true
}

// checkActionTriggers reports action_trigger entries that name an action
// the module does not declare.
func (m *Module) checkActionTriggers() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, r := range m.sortedManagedResources() {
		if r.Managed == nil {
			continue
		}
		for _, at := range r.Managed.ActionTriggers {
			for _, ref := range at.Actions {
				if m.Actions[ref.Action] == nil {
					ds = ds.Append(diag.At(ref.Expr.Range(), "Reference to undeclared action",
						fmt.Sprintf("An action block of type %q named %q has not been declared in this module.", ref.Action.Type, ref.Action.Name)))
				}
			}
		}
	}
	return ds
}

func (m *Module) sortedManagedResources() []*Resource {
	out := make([]*Resource, 0, len(m.ManagedResources))
	for _, r := range m.ManagedResources {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Resource) int {
		if a.DeclRange.Filename != b.DeclRange.Filename {
			if a.DeclRange.Filename < b.DeclRange.Filename {
				return -1
			}
			return 1
		}
		return a.DeclRange.Start.Byte - b.DeclRange.Start.Byte
	})
	return out
}

// decodeActionTrigger decodes an action_trigger block of r's lifecycle: a
// managed resource's only, as in Terraform.
func (r *Resource) decodeActionTrigger(b *hcl.Block) hcl.Diagnostics {
	at, diags := decodeActionTrigger(b)
	if r.Managed == nil {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid data resource lifecycle argument",
			Detail:   "The lifecycle block \"action_trigger\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.",
			Subject:  b.DefRange.Ptr(),
		})
	}
	r.Managed.ActionTriggers = append(r.Managed.ActionTriggers, at)
	return diags
}

// mergeAction merges an override file's action block into the action of
// the same address: each argument or config block it sets replaces the
// base's.
func (m *Module) mergeAction(block *hcl.Block) hcl.Diagnostics {
	oa, diags := decodeActionBlock(block)
	existing := m.Actions[oa.Addr]
	if existing == nil {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing base action declaration to override",
			Detail:   fmt.Sprintf("There is no %s block. An override file can only override an action that was already declared in a primary configuration file.", oa.Addr),
			Subject:  block.DefRange.Ptr(),
		})
	}
	if oa.Config != nil {
		existing.Config = oa.Config
	}
	if oa.Count != nil || oa.ForEach != nil {
		existing.Count, existing.ForEach = oa.Count, oa.ForEach
	}
	if oa.Provider != nil {
		existing.Provider = oa.Provider
	}
	return diags
}
