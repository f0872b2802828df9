package ui

import (
	"fmt"
	"io"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
)

// NotRefreshedMessage is what a -refresh=changed plan says of the objects
// it planned as recorded, their last refresh measured from now (the
// plan's timestamp, so that a saved plan says what it said when it was
// made); "" when it refreshed every object.
func NotRefreshedMessage(p *plan.Plan, now time.Time) string {
	oldest, ok := p.OldestNotRefreshed()
	if !ok {
		return ""
	}
	newest := oldest
	for _, n := range p.NotRefreshed {
		if n.LastRefreshed.After(newest) {
			newest = n.LastRefreshed
		}
	}
	objects := "objects"
	if len(p.NotRefreshed) == 1 {
		objects = "object"
	}
	when := Ago(now.Sub(oldest))
	if newer := Ago(now.Sub(newest)); newer != when {
		when = newer + " to " + when
	}
	return fmt.Sprintf("%d %s not refreshed, last refreshed %s ago: their configuration, inputs and dependencies are unchanged and the plan leaves them as they are (-refresh=true reads every object).", len(p.NotRefreshed), objects, when)
}

// RenderNotRefreshed writes NotRefreshedMessage as a paragraph, if any.
func RenderNotRefreshed(w io.Writer, p *plan.Plan, now time.Time) {
	if msg := NotRefreshedMessage(p, now); msg != "" {
		fmt.Fprintf(w, "\n%s\n", msg)
	}
}

// NotRefreshed says, before a saved plan is applied, which objects it
// planned as recorded under -refresh=changed, as the plan said when it was
// made: a paragraph, and a refresh_skipped message in the line stream.
func (o *OperationView) NotRefreshed(p *plan.Plan) {
	if o.JSON != nil {
		o.JSON.NotRefreshed(p, p.Timestamp)
	}
	if o.Human {
		RenderNotRefreshed(o.Out, p, p.Timestamp)
	}
}

// NotRefreshed sends a -refresh=changed plan's objects planned as
// recorded: a "refresh_skipped" message (rig's own type, which other
// readers skip) with their count and the oldest and newest last refresh.
func (v *JSONView) NotRefreshed(p *plan.Plan, now time.Time) {
	msg := NotRefreshedMessage(p, now)
	if msg == "" {
		return
	}
	oldest, _ := p.OldestNotRefreshed()
	newest := oldest
	for _, n := range p.NotRefreshed {
		if n.LastRefreshed.After(newest) {
			newest = n.LastRefreshed
		}
	}
	v.emit("info", msg, "refresh_skipped", map[string]any{"refresh_skipped": map[string]any{
		"count": len(p.NotRefreshed), "oldest": oldest.UTC().Format(time.RFC3339), "newest": newest.UTC().Format(time.RFC3339)}})
}

// Ago writes a duration as a person reads an age: "45s", "12m", "3h12m", "2d4h".
func Ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(max(d, 0)/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	default:
		return fmt.Sprintf("%dd%dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	}
}

// refreshJSON is the JSON plan's rig_refresh for p: nil when p read back
// every object it covers and listed none.
func refreshJSON(p *plan.Plan) *jsonformat.PlanRefresh {
	if p.Refresh == plan.RefreshAll && len(p.Refreshed) == 0 && len(p.NotRefreshed) == 0 {
		return nil
	}
	out := &jsonformat.PlanRefresh{Mode: p.Refresh.String(), MaxAgeSeconds: int64(p.RefreshMaxAge / time.Second)}
	for _, r := range p.Refreshed {
		rj := jsonformat.RefreshedObject{Address: r.Addr.Instance.String(), Deposed: string(r.Addr.Deposed), Cause: r.Cause.String()}
		if !r.LastRefreshed.IsZero() {
			rj.LastRefreshed = r.LastRefreshed.UTC().Format(time.RFC3339)
		}
		if r.Dependency != (addrs.AbsResource{}) {
			rj.Dependency = r.Dependency.String()
		}
		out.Refreshed = append(out.Refreshed, rj)
	}
	for _, n := range p.NotRefreshed {
		out.NotRefreshed = append(out.NotRefreshed, jsonformat.NotRefreshedObject{Address: n.Addr.Instance.String(),
			Deposed: string(n.Addr.Deposed), LastRefreshed: n.LastRefreshed.UTC().Format(time.RFC3339)})
	}
	return out
}
