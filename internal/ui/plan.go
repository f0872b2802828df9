package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// RenderPlan writes the human-readable plan as `tofu plan` prints it after
// planning: the symbol legend, one diff per changed object (no-ops
// omitted), the "Plan:" summary and the output changes, or the "No
// changes." message. schemas may be nil.
func RenderPlan(w io.Writer, p *plan.Plan, schemas SchemaSource, opts RenderOptions) error {
	o := opts.ropts()
	width := opts.width()
	var b strings.Builder

	changes := visibleChanges(p)
	counts := map[plan.Action]int{}
	for _, c := range changes {
		if c.Action != plan.NoOp {
			counts[c.Action]++
		}
	}
	outputs := renderOutputChanges(p, o)

	if p.Mode == plan.RefreshOnlyMode && len(p.Drift) > 0 {
		if err := renderDrift(w, p, p.Drift, schemas, o, width); err != nil {
			return err
		}
		if len(changes) == 0 && outputs == "" {
			// The note says what applying does: nothing more to say.
			return nil
		}
	}
	if drift := relevantDrift(p); p.Mode == plan.NormalMode && len(drift) > 0 {
		if err := renderDrift(w, p, drift, schemas, o, width); err != nil {
			return err
		}
	}
	invoked := renderInvokedActions(p, schemas, o)
	if len(changes) == 0 && outputs == "" && len(p.ActionInvocations) == 0 {
		switch {
		case p.Errored:
			b.WriteString(o.c("\n[reset][bold][red]Planning failed.[reset][bold] rig encountered an error while generating this plan.[reset]\n\n"))
		case p.Mode == plan.RefreshOnlyMode:
			b.WriteString(o.c("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n"))
			b.WriteString(wordWrap("rig has checked that the real remote objects still match the result of your most recent changes, and found no differences.", width) + "\n")
		case p.Mode == plan.DestroyMode:
			b.WriteString(o.c("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n"))
			b.WriteString(wordWrap("Either you have not created any objects yet or the existing objects were already deleted outside of rig.", width) + "\n")
		default:
			b.WriteString(o.c("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n"))
			b.WriteString(wordWrap("rig has compared your real infrastructure against your configuration and found no differences, so no changes are needed.", width) + "\n")
		}
	}

	if len(counts) > 0 {
		b.WriteString(wordWrap("\nrig used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", width) + "\n")
		for _, a := range []plan.Action{plan.Create, plan.Update, plan.Delete, plan.DeleteThenCreate, plan.CreateThenDelete, plan.Read, plan.ForgetThenCreate, plan.Forget} {
			if counts[a] > 0 {
				b.WriteString(o.c(legend(a)) + "\n")
			}
		}
	}

	if len(changes) > 0 || len(p.ActionInvocations) > 0 {
		if p.Errored {
			b.WriteString("\nrig planned the following actions, but then encountered a problem:\n")
		} else {
			b.WriteString("\nrig will perform the following actions:\n")
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		if err := renderChanges(w, p, changes, schemas, o); err != nil {
			return err
		}
		add := counts[plan.Create] + counts[plan.DeleteThenCreate] + counts[plan.CreateThenDelete] + counts[plan.ForgetThenCreate]
		destroy := counts[plan.Delete] + counts[plan.DeleteThenCreate] + counts[plan.CreateThenDelete]
		forget := counts[plan.Forget] + counts[plan.ForgetThenCreate]
		imports := 0
		for _, c := range changes {
			if c.Importing != nil {
				imports++
			}
		}
		// The counts hold no "[": they are safe inside the color template.
		summary := ChangeSummary{Add: add, Change: counts[plan.Update], Remove: destroy, Import: imports, Forget: forget, Actions: len(p.ActionInvocations)}
		b.WriteString(o.c("\n[bold]Plan:[reset] " + strings.TrimPrefix(summary.String(), "Plan: ") + "\n"))
		if n := len(p.Refused()); n > 0 {
			b.WriteString(wordWrap(fmt.Sprintf("\n%d of these destroys %s refused: the state records a prevent_destroy for %s. This plan cannot be applied until none is refused.", n, plural(n, "is", "are"), plural(n, "its object", "their objects")), width) + "\n")
		}
	}

	b.WriteString(invoked)
	if outputs != "" {
		b.WriteString("\nChanges to Outputs:\n")
		b.WriteString(outputs)
		b.WriteString("\n")
		if len(counts) == 0 && !p.Errored {
			b.WriteString(wordWrap("\nYou can apply this plan to save these new output values to the rig state, without changing any real infrastructure.", width) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// visibleChanges returns the changes a human plan shows, sorted: no-ops
// (except objects that moved) and deletions of data sources are left out.
func visibleChanges(p *plan.Plan) []*plan.ResourceInstanceChange {
	var out []*plan.ResourceInstanceChange
	for _, c := range p.Changes {
		if c.Action == plan.NoOp && !c.Moved() && c.Importing == nil || (c.Action == plan.Delete && c.Addr.Resource.Resource.Mode == addrs.Data) {
			continue
		}
		out = append(out, c)
	}
	sortChanges(out)
	return out
}

func sortChanges(cs []*plan.ResourceInstanceChange) {
	slices.SortStableFunc(cs, func(a, b *plan.ResourceInstanceChange) int {
		if c := compareInstances(a.Addr, b.Addr); c != 0 {
			return c
		}
		return strings.Compare(string(a.Deposed), string(b.Deposed))
	})
}

func legend(a plan.Action) string {
	switch a {
	case plan.Create:
		return "  [green]+[reset] create"
	case plan.Delete:
		return "  [red]-[reset] destroy"
	case plan.Update:
		return "  [yellow]~[reset] update in-place"
	case plan.CreateThenDelete:
		return "[green]+[reset]/[red]-[reset] create replacement and then destroy"
	case plan.DeleteThenCreate:
		return "[red]-[reset]/[green]+[reset] destroy and then create replacement"
	case plan.Read:
		return " [cyan]<=[reset] read (data resources)"
	case plan.ForgetThenCreate:
		return "[red].[reset]/[green]+[reset] forget and then create replacement"
	case plan.Forget:
		return "  [red].[reset] forget"
	}
	return ""
}

// renderChange renders one object's change: the comment lines and the
// resource block with its attribute diff.
func renderChange(c *plan.ResourceInstanceChange, schemas SchemaSource, o ropts) string {
	var b strings.Builder
	writeChange(&b, c, schemas, o)
	return b.String()
}

// writeChange writes renderChange's text into b.
func writeChange(b *strings.Builder, c *plan.ResourceInstanceChange, schemas SchemaSource, o ropts) {
	blk := lookupBlock(schemas, c.ProviderConfig.Provider, c.Addr.Resource.Resource)
	d := &differ{before: pathSet{}, after: pathSet{}, replace: pathSet{}}
	beforeVal, afterVal := c.BeforeValue(), plan.WithoutUnknownEcho(c.ProviderConfig.Provider, c.Addr.Resource.Resource.Type, c.BeforeValue(), c.After)
	if c.Action == plan.Forget {
		// The object stays as it is, only out of rig's hands.
		afterVal = beforeVal
	}
	before, after := unmarkInto(beforeVal, d.before), unmarkInto(afterVal, d.after)
	if blk == nil {
		blk = fallbackBlock(before, after)
	}
	addSchemaSensitive(blk, before, nil, d.before)
	addSchemaSensitive(blk, after, nil, d.after)
	for _, p := range c.RequiredReplace {
		d.replace.add(p)
	}
	n := d.block(side{v: before}, side{v: after}, blk)
	r := c.Addr.Resource.Resource
	mode := "resource"
	if r.Mode == addrs.Data {
		mode = "data"
	}
	b.WriteString(o.c(changeComment(c)))
	fmt.Fprintf(b, "%s %s %q %q ", o.c(actionSymbol(c.Action)), mode, r.Type, r.Name)
	n.render(b, 0, o)
}

// changeComment is the "  # addr will be …" header of a change, with its
// explanation lines, as a color template ending in a newline.
func changeComment(c *plan.ResourceInstanceChange) string {
	addr := c.ObjectAddr().String()
	var b strings.Builder
	switch c.Action {
	case plan.NoOp:
		if c.Importing != nil {
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be imported", addr)
			break
		}
		fmt.Fprintf(&b, "[bold]  # %s[reset] has moved to [bold]%s[reset]", c.PrevRunAddr, addr)
	case plan.Forget:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will no longer be managed by rig, but [bold][red]will not be destroyed[reset]", addr)
		switch c.Reason {
		case plan.ForgotBecauseLifecycleDestroyInConfig:
			b.WriteString("\n  # (because [bold]lifecycle.destroy = false[reset] is set in the configuration)")
		case plan.ForgotBecauseLifecycleDestroyInState:
			b.WriteString("\n  # (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)")
		default:
			b.WriteString("\n  # (destroy = false is set in the configuration)")
		}
	case plan.Create:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be created", addr)
	case plan.Read:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be read during apply", addr)
		switch c.Reason {
		case plan.ReadBecauseCheckNested:
			b.WriteString("\n  # (config will be reloaded to verify a check block)")
		case plan.ReasonReadConfigUnknown:
			b.WriteString("\n  # (config refers to values not yet known)")
		case plan.ReasonReadDependencyPending:
			b.WriteString("\n  # (depends on a resource or a module with changes pending)")
		}
	case plan.Update:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be updated in-place", addr)
	case plan.CreateThenDelete, plan.DeleteThenCreate, plan.ForgetThenCreate:
		switch c.Reason {
		case plan.ReplaceBecauseTainted:
			fmt.Fprintf(&b, "[bold]  # %s[reset] is tainted, so it must be [bold][red]replaced[reset]", addr)
		case plan.ReplaceByRequest:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset], as requested", addr)
		case plan.ReplaceByTriggers:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by", addr)
		default:
			fmt.Fprintf(&b, "[bold]  # %s[reset] must be [bold][red]replaced[reset]", addr)
		}
		if c.Action == plan.ForgetThenCreate {
			b.WriteString(" - [yellow]older instance will [bold]not[reset][yellow] be destroyed[reset] ([bold]lifecycle.destroy = false[reset])")
		}
	case plan.Delete:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]destroyed[reset]", addr)
		r := c.Addr.Resource
		switch c.Reason {
		case plan.DeleteBecauseNoResourceConfig:
			fmt.Fprintf(&b, "\n  # (because %s.%s is not in configuration)", r.Resource.Type, r.Resource.Name)
		case plan.DeleteBecauseNoModule:
			fmt.Fprintf(&b, "\n  # (because %s is not in configuration)", c.Addr.Module)
		case plan.DeleteBecauseNoMoveTarget:
			fmt.Fprintf(&b, "\n  # (because %s was moved to %s, which is not in configuration)", c.PrevRunAddr, c.Addr)
		case plan.DeleteBecauseWrongRepetition:
			switch {
			case r.Key.IsInt():
				b.WriteString("\n  # (because resource does not use count)")
			case r.Key.IsString():
				b.WriteString("\n  # (because resource does not use for_each)")
			default:
				b.WriteString("\n  # (because resource uses count or for_each)")
			}
		case plan.DeleteBecauseCountIndex:
			fmt.Fprintf(&b, "\n  # (because index [%s] is out of range for count)", keyJSON(r.Key))
		case plan.DeleteBecauseEachKey:
			fmt.Fprintf(&b, "\n  # (because key [%s] is not in for_each map)", keyJSON(r.Key))
		case plan.DeleteBecauseEnabledFalse:
			b.WriteString("\n  # (because enabled is false)")
		}
		if c.Deposed != addrs.NotDeposed {
			b.WriteString("\n  # (left over from a partially-failed replacement of this instance)")
		}
		if c.RefusedBy != "" {
			fmt.Fprintf(&b, "\n  # [bold][red](refused: protected by the prevent_destroy set at %s, recorded in state)[reset]", c.RefusedBy)
		}
	default:
		fmt.Fprintf(&b, "%s has an action the plan renderer doesn't support (this is a bug)", addr)
	}
	if c.Moved() && (c.Action != plan.NoOp || c.Importing != nil) {
		fmt.Fprintf(&b, "\n  # [reset](moved from %s)", c.PrevRunAddr)
	}
	if c.Importing != nil && c.Action != plan.NoOp {
		b.WriteString(importedFrom(c.Importing))
	}
	if c.Importing != nil && c.Importing.GeneratedConfig != "" {
		b.WriteString("\n  # [reset](config will be generated)")
	}
	b.WriteString("\n")
	return b.String()
}

// keyJSON is an instance key as JSON: a number, a string, or null.
func keyJSON(k addrs.InstanceKey) string {
	switch {
	case k.IsInt():
		return fmt.Sprint(k.Int())
	case k.IsString():
		j, _ := json.Marshal(k.Str())
		return string(j)
	}
	return "null"
}

// renderOutputChanges renders the changed root outputs, one per line,
// names aligned; "" when none changed.
func renderOutputChanges(p *plan.Plan, o ropts) string {
	names := slices.Sorted(maps.Keys(p.Outputs))
	width := 0
	for _, name := range names {
		width = max(width, len(attrName(name)))
	}
	var b strings.Builder
	for _, name := range names {
		n := outputDiff(p.Outputs[name])
		if n.action == plan.NoOp {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s %-*s = ", o.c(actionSymbol(n.action)), width, attrName(name))
		n.render(&b, 0, o)
	}
	return b.String()
}

func outputDiff(oc *plan.OutputChange) *node {
	d := &differ{before: pathSet{}, after: pathSet{}}
	before, after := orNull(unmarkInto(oc.Before, d.before)), orNull(unmarkInto(oc.After, d.after))
	if oc.Sensitive {
		d.before.add(nil)
		d.after.add(nil)
	}
	return d.attr(side{v: before}, side{v: after}, cty.DynamicPseudoType)
}

func orNull(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return v
}

// renderChanges writes each change's block, in order; a window of changes at
// a time is rendered on all processors.
func renderChanges(w io.Writer, p *plan.Plan, changes []*plan.ResourceInstanceChange, schemas SchemaSource, o ropts) error {
	const window = 512
	texts := make([]string, window)
	workers := runtime.GOMAXPROCS(0)
	for len(changes) > 0 {
		n := min(window, len(changes))
		var wg sync.WaitGroup
		for k := range workers {
			wg.Go(func() {
				// Each text is written into a builder grown once to about
				// the size of the last: changes of a plan are much alike.
				last := 0
				for i := k; i < n; i += workers {
					var b strings.Builder
					b.Grow(last + last/4 + 64)
					b.WriteByte('\n')
					writeChange(&b, changes[i], schemas, o)
					b.WriteString(renderTriggeredActions(p, changes[i], schemas, o))
					b.WriteByte('\n')
					texts[i], last = b.String(), b.Len()
				}
			})
		}
		wg.Wait()
		if _, err := io.WriteString(w, strings.Join(texts[:n], "")); err != nil {
			return err
		}
		changes = changes[n:]
	}
	return nil
}

// renderDrift writes the "Objects have changed outside of rig" note of a
// refresh-only plan: the difference, for each object refreshing found
// changed, between the previous run's state and the refreshed one.
func renderDrift(w io.Writer, p *plan.Plan, drift []*plan.ResourceInstanceChange, schemas SchemaSource, o ropts, width int) error {
	var b strings.Builder
	b.WriteString(o.c("\n[reset][bold][cyan]Note:[reset][bold] Objects have changed outside of rig[reset]\n\n"))
	b.WriteString(wordWrap("rig detected the following changes made outside of rig since the last \"rig apply\" which may have affected this plan:", width) + "\n")
	drift = slices.Clone(drift)
	sortChanges(drift)
	for _, c := range drift {
		b.WriteString("\n" + renderDriftChange(c, schemas, o) + "\n")
	}
	if p.Mode == plan.RefreshOnlyMode {
		b.WriteString(wordWrap("\nThis is a refresh-only plan, so rig will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the rig state without changing any remote objects.", width) + "\n")
	} else {
		b.WriteString(wordWrap("\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.", width) + "\n")
		b.WriteString("\n" + strings.Repeat("─", 77) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// relevantDrift returns the changes made outside rig that matter to a
// normal plan, as OpenTofu shows them: for each object drifted, only the
// changes to its relevant attributes (those the planned changes refer to,
// directly or not); an object with none is left out.
func relevantDrift(p *plan.Plan) []*plan.ResourceInstanceChange {
	if len(p.Drift) == 0 {
		return nil
	}
	paths := map[string][]cty.Path{}
	for _, ra := range p.RelevantAttributes {
		k := ra.Resource.String()
		paths[k] = append(paths[k], ra.Path)
	}
	var out []*plan.ResourceInstanceChange
	for _, d := range p.Drift {
		relevant := paths[d.Addr.String()]
		if len(relevant) == 0 || d.Deposed != addrs.NotDeposed {
			continue
		}
		if d.Action == plan.Delete {
			out = append(out, d)
			continue
		}
		after, changed := onlyRelevant(d.Before, d.After, relevant)
		if !changed {
			continue
		}
		c := *d
		c.After = after
		out = append(out, &c)
	}
	return out
}

// onlyRelevant returns before with the values at the relevant paths taken
// from after, and whether that differs from before.
func onlyRelevant(before, after cty.Value, relevant []cty.Path) (cty.Value, bool) {
	b, bmarks := before.UnmarkDeepWithPaths()
	a, amarks := after.UnmarkDeepWithPaths()
	if b.IsNull() || a.IsNull() || !b.IsKnown() || !a.IsKnown() {
		return after, !before.RawEquals(after)
	}
	out, err := cty.Transform(b, func(path cty.Path, v cty.Value) (cty.Value, error) {
		for _, rp := range relevant {
			if path.Equals(rp) {
				if av, err := rp.Apply(a); err == nil {
					return av, nil
				}
			}
		}
		return v, nil
	})
	if err != nil {
		return after, !before.RawEquals(after)
	}
	changed := !out.RawEquals(b)
	return out.MarkWithPaths(keepMarks(out, append(bmarks, amarks...))), changed
}

// keepMarks returns the marks whose paths exist in v.
func keepMarks(v cty.Value, marks []cty.PathValueMarks) []cty.PathValueMarks {
	var out []cty.PathValueMarks
	for _, m := range marks {
		if _, err := m.Path.Apply(v); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// renderDriftChange renders one drifted object as a change with the
// "has changed" or "has been deleted" header.
func renderDriftChange(c *plan.ResourceInstanceChange, schemas SchemaSource, o ropts) string {
	text := renderChange(c, schemas, o)
	// renderChange starts with its own comment lines: replace them.
	header := o.c(changeComment(c))
	verb := "has changed"
	if c.Action == plan.Delete {
		verb = "has been deleted"
	}
	return o.c(fmt.Sprintf("[bold]  # %s[reset] %s\n", c.ObjectAddr(), verb)) + strings.TrimPrefix(text, header)
}
