package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
)

// actionText says what a change does, as a user reads it.
func actionText(c *plan.ResourceInstanceChange) string {
	switch c.Action {
	case plan.NoOp:
		return "no change"
	case plan.Create:
		return "create"
	case plan.Read:
		return "read during apply"
	case plan.Update:
		return "update in place"
	case plan.DeleteThenCreate:
		return "replace (destroy, then create)"
	case plan.CreateThenDelete:
		return "replace (create, then destroy the deposed object)"
	case plan.Delete:
		return "destroy"
	case plan.Forget:
		return "forget (remove from state, keep the object)"
	case plan.ForgetThenCreate:
		return "replace (forget the old object, keeping it, then create)"
	}
	return c.Action.String()
}

// pos writes a range as "main.tf:7".
func pos(r hcl.Range) string { return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line) }

// WriteText writes the report as `rig explain` prints it.
func WriteText(w io.Writer, rep Report) error {
	var b strings.Builder
	for i, o := range rep.Objects {
		if i > 0 {
			b.WriteString("\n")
		}
		writeObject(&b, o)
	}
	for i, r := range rep.Actions {
		if i > 0 || len(rep.Objects) > 0 {
			b.WriteString("\n")
		}
		writeActionReport(&b, r)
	}
	for i, r := range rep.Ephemerals {
		if i > 0 || len(rep.Objects)+len(rep.Actions) > 0 {
			b.WriteString("\n")
		}
		writeEphemeralReport(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeObject(b *strings.Builder, o Object) {
	c := o.Change
	fmt.Fprintf(b, "%s\n", o.Addr)
	fmt.Fprintf(b, "  action: %s\n", actionText(c))
	if r := c.Reason.JSON(); r != "" {
		fmt.Fprintf(b, "  action_reason: %s\n", r)
	}
	for _, r := range o.Reasons {
		if r.Kind == plan.BecauseCBD || r.Kind == plan.BecauseCBDInherited {
			continue // told below
		}
		fmt.Fprintf(b, "  because %s", r)
		if r.Kind == plan.BecauseTriggered && r.Trigger != nil && r.Trigger.Range.Filename != "" {
			fmt.Fprintf(b, " (%s)", pos(r.Trigger.Range))
		}
		b.WriteString("\n")
	}
	if t := o.Refresh.Text(); t != "" && c.Addr.Resource.Resource.Mode == addrs.Managed {
		fmt.Fprintf(b, "  refresh: %s\n", t)
	}
	if o.Declared != nil {
		fmt.Fprintf(b, "  declared at %s\n", pos(*o.Declared))
	}
	if c.Addr.Resource.Resource.Mode == addrs.Managed {
		b.WriteString("  create_before_destroy: " + cbdText(o.CBD) + "\n")
	}
	if o.Gate != nil {
		writeGate(b, o.Gate)
	}
	if len(o.Operations) == 0 {
		b.WriteString("  no operations\n")
	}
	for _, op := range o.Operations {
		fmt.Fprintf(b, "  step %d: %s\n", op.Step, op.Label)
		writeEdges(b, "waits for", op.WaitsFor)
		writeActions(b, op.Actions)
		writeUses(b, op.Ephemerals)
		writeEdges(b, "waited for by", op.WaitedForBy)
	}
}

func cbdText(c CBD) string {
	switch {
	case !c.Enabled:
		return "no"
	case c.From != (addrs.AbsResource{}):
		s := "inherited from " + c.From.String()
		if c.Setting != nil {
			s += " (set at " + pos(*c.Setting) + ")"
		}
		if len(c.Path) > 0 {
			s += ", along " + plan.JoinResources(c.Path) + " (each depends on the next)"
		}
		return s
	case c.Setting != nil:
		return "set at " + pos(*c.Setting)
	}
	return "yes (recorded in state)"
}

func writeEdges(b *strings.Builder, title string, edges []Edge) {
	if len(edges) == 0 {
		fmt.Fprintf(b, "    %s: nothing\n", title)
		return
	}
	fmt.Fprintf(b, "    %s:\n", title)
	for _, e := range edges {
		if e.Step > 0 {
			fmt.Fprintf(b, "      step %d: %s\n", e.Step, e.Label)
		} else {
			fmt.Fprintf(b, "      %s\n", e.Label)
		}
		if e.Description != "" {
			fmt.Fprintf(b, "        %s\n", e.Description)
		}
		for _, s := range e.Sources {
			fmt.Fprintf(b, "        %s at %s: %s\n", s.What, pos(s.Range), s.Text)
		}
		if e.Recorded {
			b.WriteString("        recorded in state (the dependent's configuration is gone)\n")
		}
	}
}

// reportJSON is the JSON form of a Report (`rig explain -json`).
type reportJSON struct {
	Address string       `json:"address"`
	Objects []objectJSON `json:"objects"`
	// Actions and Ephemerals explain an action's invocations and an
	// ephemeral resource.
	Actions    []actionReportJSON    `json:"actions,omitempty"`
	Ephemerals []ephemeralReportJSON `json:"ephemeral_resources,omitempty"`
}

type objectJSON struct {
	Address             string              `json:"address"`
	Deposed             string              `json:"deposed,omitempty"`
	Action              string              `json:"action"`
	ActionReason        string              `json:"action_reason,omitempty"`
	Reasons             []jsonformat.Reason `json:"reasons,omitempty"`
	Declared            *rangeJSON          `json:"declared,omitempty"`
	CreateBeforeDestroy cbdJSON             `json:"create_before_destroy"`
	Operations          []operationJSON     `json:"operations"`
	// NotRefreshedSince is set for an object planned as recorded (-refresh=changed).
	NotRefreshedSince string `json:"not_refreshed_since,omitempty"`
	// Refresh says how the plan treated the recorded object; absent
	// when there was none.
	Refresh *refreshJSON `json:"refresh,omitempty"`
	// HealthGate is the gate of the object's replacement (rig.hcl).
	HealthGate *gateJSON `json:"health_gate,omitempty"`
}

// refreshJSON is an object's Refresh: read_back, the plan's mode, and
// cause, last_refreshed and dependency as the plan recorded them.
type refreshJSON struct {
	ReadBack      bool   `json:"read_back"`
	Mode          string `json:"mode"`
	Cause         string `json:"cause,omitempty"`
	LastRefreshed string `json:"last_refreshed,omitempty"`
	Dependency    string `json:"dependency,omitempty"`
	MaxAgeSeconds int64  `json:"max_age_seconds,omitempty"`
	Message       string `json:"message"`
}

type cbdJSON struct {
	Enabled bool       `json:"enabled"`
	From    string     `json:"inherited_from,omitempty"`
	Path    []string   `json:"path,omitempty"`
	Setting *rangeJSON `json:"setting,omitempty"`
}

type operationJSON struct {
	Operation   string     `json:"operation"`
	Action      string     `json:"action"`
	Step        int        `json:"step"`
	WaitsFor    []edgeJSON `json:"waits_for"`
	WaitedForBy []edgeJSON `json:"waited_for_by"`
	// Actions are the actions the operation runs (Terraform 1.14).
	Actions []actionJSON `json:"actions,omitempty"`
	// UsesEphemeral are the ephemeral resources the operation uses.
	UsesEphemeral []string `json:"uses_ephemeral,omitempty"`
}

type edgeJSON struct {
	Operation   string       `json:"operation"`
	Step        int          `json:"step,omitempty"`
	Rule        string       `json:"rule"`
	Description string       `json:"description"`
	Sources     []sourceJSON `json:"sources,omitempty"`
	// Recorded: the dependency comes from the state, the dependent's
	// configuration being gone.
	Recorded bool `json:"recorded_in_state,omitempty"`
}

type sourceJSON struct {
	What  string    `json:"what"`
	Text  string    `json:"text"`
	Range rangeJSON `json:"range"`
}

type rangeJSON struct {
	Filename string `json:"filename"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

func rangeOf(r *hcl.Range) *rangeJSON {
	if r == nil {
		return nil
	}
	return &rangeJSON{Filename: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

// WriteJSON writes the report as one indented JSON document.
func WriteJSON(w io.Writer, rep Report) error {
	out := reportJSON{Address: rep.Address.String(), Objects: []objectJSON{}}
	for _, o := range rep.Objects {
		c := o.Change
		oj := objectJSON{Address: c.Addr.String(), Deposed: string(c.Deposed), Action: c.Action.String(),
			ActionReason: c.Reason.JSON(), Reasons: ui.ReasonsJSON(o.Reasons), Declared: rangeOf(o.Declared),
			CreateBeforeDestroy: cbdJSON{Enabled: o.CBD.Enabled, Setting: rangeOf(o.CBD.Setting)}, Operations: []operationJSON{},
			HealthGate: gateToJSON(o.Gate)}
		if o.CBD.From != (addrs.AbsResource{}) {
			oj.CreateBeforeDestroy.From = o.CBD.From.String()
		}
		if n := o.Refresh.NotRefreshed; n != nil {
			oj.NotRefreshedSince = n.LastRefreshed.UTC().Format(time.RFC3339)
		}
		if r := o.Refresh; r.Recorded && c.Addr.Resource.Resource.Mode == addrs.Managed {
			rj := &refreshJSON{ReadBack: r.ReadBack(), Mode: r.Mode.String(), MaxAgeSeconds: int64(r.MaxAge / time.Second), Message: r.Text()}
			if n := r.NotRefreshed; n != nil {
				rj.LastRefreshed = n.LastRefreshed.UTC().Format(time.RFC3339)
			}
			if w := r.Refreshed; w != nil {
				rj.Cause = w.Cause.String()
				if !w.LastRefreshed.IsZero() {
					rj.LastRefreshed = w.LastRefreshed.UTC().Format(time.RFC3339)
				}
				if w.Dependency != (addrs.AbsResource{}) {
					rj.Dependency = w.Dependency.String()
				}
			}
			oj.Refresh = rj
		}
		for _, r := range o.CBD.Path {
			oj.CreateBeforeDestroy.Path = append(oj.CreateBeforeDestroy.Path, r.String())
		}
		for _, op := range o.Operations {
			action, _, _ := strings.Cut(op.Label, " ")
			opj := operationJSON{Operation: op.Label, Action: action, Step: op.Step, WaitsFor: edgesJSON(op.WaitsFor), WaitedForBy: edgesJSON(op.WaitedForBy),
				Actions: actionsJSON(op.Actions), UsesEphemeral: ephemeralNames(op.Ephemerals)}
			oj.Operations = append(oj.Operations, opj)
		}
		out.Objects = append(out.Objects, oj)
	}
	out.Actions = actionReportsJSON(rep.Actions)
	out.Ephemerals = ephemeralReportsJSON(rep.Ephemerals)
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the explanation of %s: %w", rep.Address, err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func edgesJSON(edges []Edge) []edgeJSON {
	out := []edgeJSON{}
	for _, e := range edges {
		ej := edgeJSON{Operation: e.Label, Step: e.Step, Rule: e.Rule.String(), Description: e.Description, Recorded: e.Recorded}
		for _, s := range e.Sources {
			ej.Sources = append(ej.Sources, sourceJSON{What: s.What, Text: s.Text, Range: *rangeOf(&s.Range)})
		}
		out = append(out, ej)
	}
	return out
}
