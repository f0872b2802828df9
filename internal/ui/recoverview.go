package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/recovery"
)

// RecoverView shows what rig recover found and did: text on W, and on
// JSON one cut_off_create message per create and a recover_summary
// message. Either may be nil.
type RecoverView struct {
	W    io.Writer
	JSON *JSONView
}

// NewRecoverView returns the view of a command whose JSON stream is
// stream (nil without -json and -json-into), its human output on w.
func NewRecoverView(w io.Writer, stream *CommandStream) RecoverView {
	switch {
	case stream == nil:
		return RecoverView{W: w}
	case stream.Human:
		return RecoverView{W: w, JSON: stream.View}
	}
	return RecoverView{JSON: stream.View}
}

// Nothing says there is no cut-off create to recover.
func (o RecoverView) Nothing() {
	const msg = "No creates cut off by a crash: there is nothing to recover."
	if o.W != nil {
		fmt.Fprintln(o.W, msg)
	}
	if o.JSON != nil {
		o.JSON.Message(msg, "recover_summary", map[string]any{"summary": map[string]any{"imported": []string{}, "forgotten": []string{}, "left": 0}})
	}
}

// RecoverNearShown is how many near candidates of a create the text
// shows, the best ranked; -json lists them all.
const RecoverNearShown = 5

// Finding shows one cut-off create: what was searched, the candidates
// (numbered, exact ones first, then the near ones that have the most
// planned values, at most RecoverNearShown of them, each with how it
// compares with the planned values) and what rig will do unless told
// otherwise.
func (o RecoverView) Finding(f planner.CutOffFinding, c recovery.Choice) {
	addr := f.Create.Addr.String()
	action := RecoverAction(f, c)
	if o.JSON != nil {
		cands := make([]map[string]any, len(f.Candidates))
		for i, cand := range f.Candidates {
			diffs := cand.Differences
			if diffs == nil {
				diffs = []planner.CutOffDifference{}
			}
			cands[i] = map[string]any{
				"number": i + 1, "identity": json.RawMessage(cand.IdentityJSON), "display_name": cand.DisplayName, "exact": cand.Exact,
				"matched": nonNil(cand.Matched), "differences": diffs, "unreported": nonNil(cand.Unreported), "found_by_filter": cand.Filtered,
				"identity_match": cand.IdentityMatch,
			}
		}
		fields := map[string]any{
			"address": addr, "provider": f.ProviderConfig.String(), "status": string(f.Status), "searched_by": nonNil(f.SearchedBy),
			"by_identity": f.ByIdentity, "occupied": f.Occupied, "candidates": cands, "action": action,
			"imports": append([]int{}, c.Picks...), "forgets": c.Absent, "creates": max(f.Create.Count, 1),
			"planned_identity": nonNil(f.PlannedIdentity), "searched_by_planned_identity": f.IdentityFiltered,
		}
		if f.Note != "" {
			fields["note"] = f.Note
		}
		o.JSON.Message(fmt.Sprintf("%s: %s", addr, f.Status), "cut_off_create", map[string]any{"create": fields})
	}
	if o.W == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s", addr)
	if !f.ProviderConfig.Provider.IsZero() {
		fmt.Fprintf(&b, " (%s)", f.ProviderConfig)
	}
	b.WriteString("\n")
	switch {
	case f.Status == planner.CutOffUnsearchable:
		fmt.Fprintf(&b, "  not searched: %s. Look for the object with its planned values where its provider keeps it:\n", f.Note)
		for _, name := range slices.Sorted(maps.Keys(f.Create.Values)) {
			fmt.Fprintf(&b, "    %s = %s\n", name, f.Create.Values[name])
		}
	case len(f.PlannedIdentity) > 0:
		b.WriteString(searchedWithIdentity(f))
	case len(f.SearchedBy) > 0:
		how := "by the planned values"
		if f.ByIdentity {
			how = "by identity"
		}
		fmt.Fprintf(&b, "  searched %s (%s), and among every %s object the state does not record\n", how, strings.Join(f.SearchedBy, ", "), f.Create.Addr.Resource.Resource.Type)
	default:
		fmt.Fprintf(&b, "  searched among every %s object the state does not record (the list takes none of the planned values as a filter)\n", f.Create.Addr.Resource.Resource.Type)
	}
	if f.Status == planner.CutOffAbsent {
		b.WriteString("  found nothing: the provider lists no such object the state does not record\n")
	}
	near := 0
	for i, cand := range f.Candidates {
		kind := "near"
		if cand.Exact {
			kind = "exact"
		} else if cand.IdentityMatch {
			kind = "identity"
		} else if near++; near > RecoverNearShown {
			fmt.Fprintf(&b, "  ... and %d more near candidate(s), none with more of the planned values than those above (-json lists every one)\n", len(f.Candidates)-i)
			break
		}
		name := cand.DisplayName
		if name == "" {
			name = cand.IdentityJSON
		} else {
			name += " " + cand.IdentityJSON
		}
		fmt.Fprintf(&b, "  [%d] %s match: %s\n", i+1, kind, name)
		if cand.IdentityMatch {
			b.WriteString("      has the planned identity\n")
		}
		if len(cand.Matched) > 0 {
			fmt.Fprintf(&b, "      has the planned %s\n", strings.Join(cand.Matched, ", "))
		}
		for _, d := range cand.Differences {
			fmt.Fprintf(&b, "      %s is %s, planned %s\n", d.Name, d.Found, d.Planned)
		}
		if len(cand.Unreported) > 0 {
			fmt.Fprintf(&b, "      not reported by the provider: %s\n", strings.Join(cand.Unreported, ", "))
		}
	}
	if f.Create.Count > 1 {
		fmt.Fprintf(&b, "  %d creates of %s were cut off: each may have made an object.\n", f.Create.Count, addr)
	}
	if f.Status == planner.CutOffHalfMade {
		b.WriteString("  The object with the planned identity does not have the planned values: it may be half-made (the provider made it, then was cut off before finishing it) or changed since: decide.\n")
	}
	if f.Status == planner.CutOffNear {
		b.WriteString("  No object has the planned values. An object with none of them may be half-made (the provider made it, then was cut off before writing it) or made outside rig: decide.\n")
	}
	if f.Occupied {
		fmt.Fprintf(&b, "  An apply has made %s's object since: a candidate imported is an extra object, recorded as deposed, which the next apply destroys.\n", addr)
	}
	fmt.Fprintf(&b, "  -> %s\n", action)
	fmt.Fprint(o.W, b.String())
}

// RecoverAction says in words what rig will do about a finding.
func RecoverAction(f planner.CutOffFinding, c recovery.Choice) string {
	addr := f.Create.Addr.String()
	switch {
	case len(c.Picks) > 0:
		var parts []string
		for i, n := range c.Picks {
			if i == 0 && !f.Occupied {
				parts = append(parts, fmt.Sprintf("candidate %d into %s", n, addr))
			} else {
				parts = append(parts, fmt.Sprintf("candidate %d as a deposed object of %s", n, addr))
			}
		}
		return fmt.Sprintf("import %s (%s)", strings.Join(parts, ", "), c.Why)
	case c.Absent:
		return fmt.Sprintf("forget the create: no object was made (%s)", c.Why)
	case f.Status == planner.CutOffUnsearchable:
		return fmt.Sprintf("needs your decision: once you have looked, \"rig import %s ID\" or -absent=%s", addr, addr)
	}
	return fmt.Sprintf("needs your decision: -select=%s=N imports candidate N, -absent=%s forgets the create", addr, addr)
}

// Summary says what rig recover did and what is left.
func (o RecoverView) Summary(imported, forgotten []string, left int) {
	msg := fmt.Sprintf("Recovery: %d object(s) imported, %d create(s) forgotten, %d left.", len(imported), len(forgotten), left)
	if o.JSON != nil {
		o.JSON.Message(msg, "recover_summary", map[string]any{"summary": map[string]any{"imported": nonNil(imported), "forgotten": nonNil(forgotten), "left": left}})
	}
	if o.W == nil {
		return
	}
	fmt.Fprintf(o.W, "\n%s\n", msg)
	if len(imported) > 0 {
		fmt.Fprintln(o.W, "Run \"rig plan\" to see how the imported objects compare with the configuration.")
	}
	if left > 0 {
		fmt.Fprintln(o.W, "rig lists the creates left until you decide them (rig recover).")
	}
}

// nonNil is s, or an empty list for JSON's [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// searchedWithIdentity says how a create planned with an identity was
// searched for: by it (where the list takes it as a filter), by the
// planned values, and among every object of the type, each compared with
// the planned identity.
func searchedWithIdentity(f planner.CutOffFinding) string {
	identity := strings.Join(f.PlannedIdentity, ", ")
	var by []string
	if f.IdentityFiltered {
		by = append(by, fmt.Sprintf("by the planned identity (%s)", identity))
	}
	if len(f.SearchedBy) > 0 {
		by = append(by, fmt.Sprintf("by the planned values (%s)", strings.Join(f.SearchedBy, ", ")))
	}
	all := fmt.Sprintf("among every %s object the state does not record", f.Create.Addr.Resource.Resource.Type)
	if !f.IdentityFiltered {
		all += fmt.Sprintf(", for the planned identity (%s)", identity)
	}
	if len(by) == 0 {
		return "  searched " + all + "\n"
	}
	return fmt.Sprintf("  searched %s, and %s\n", strings.Join(by, ", "), all)
}
