package ui

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/jsonformat"
)

// The views print the opening and closing of ephemeral resources as
// OpenTofu does: "ADDR: Opening...", "ADDR: Open complete after 1s",
// "ADDR: Closing...", "ADDR: Close complete after 0s". A failed open or
// close prints nothing more: its diagnostics tell.

var (
	_ ephemeral.Hooks = (*RefreshView)(nil)
	_ ephemeral.Hooks = (*HumanHooks)(nil)
)

// ephemeralLines prints those lines, through print, colored when color
// is set: the one rendering of the human views.
type ephemeralLines struct {
	color bool
	print func(line string)
}

func (l ephemeralLines) line(addr addrs.AbsResourceInstance, text string) {
	l.print(colorize("[reset][bold]", l.color) + addr.String() + ": " + text + colorize("[reset]", l.color))
}

// PreOpen prints "ADDR: Opening...".
func (l ephemeralLines) PreOpen(addr addrs.AbsResourceInstance) { l.line(addr, "Opening...") }

// PostOpen prints "ADDR: Open complete after 1s".
func (l ephemeralLines) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		l.line(addr, "Open complete after "+elapsed.Round(time.Second).String())
	}
}

// PreClose prints "ADDR: Closing...".
func (l ephemeralLines) PreClose(addr addrs.AbsResourceInstance) { l.line(addr, "Closing...") }

// PostClose prints "ADDR: Close complete after 0s".
func (l ephemeralLines) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		l.line(addr, "Close complete after "+elapsed.Round(time.Second).String())
	}
}

func (v *RefreshView) ephemeralLines() ephemeralLines { return ephemeralLines{v.color, v.print} }

func (h *HumanHooks) ephemeralLines() ephemeralLines {
	return ephemeralLines{h.color, func(line string) { h.println("%s", line) }}
}

// PreOpen prints "ADDR: Opening...".
func (v *RefreshView) PreOpen(addr addrs.AbsResourceInstance) { v.ephemeralLines().PreOpen(addr) }

// PostOpen prints "ADDR: Open complete after 1s".
func (v *RefreshView) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	v.ephemeralLines().PostOpen(addr, elapsed, failed)
}

// PreClose prints "ADDR: Closing...".
func (v *RefreshView) PreClose(addr addrs.AbsResourceInstance) { v.ephemeralLines().PreClose(addr) }

// PostClose prints "ADDR: Close complete after 0s".
func (v *RefreshView) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	v.ephemeralLines().PostClose(addr, elapsed, failed)
}

// PreOpen prints "ADDR: Opening...".
func (h *HumanHooks) PreOpen(addr addrs.AbsResourceInstance) { h.ephemeralLines().PreOpen(addr) }

// PostOpen prints "ADDR: Open complete after 1s".
func (h *HumanHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	h.ephemeralLines().PostOpen(addr, elapsed, failed)
}

// PreClose prints "ADDR: Closing...".
func (h *HumanHooks) PreClose(addr addrs.AbsResourceInstance) { h.ephemeralLines().PreClose(addr) }

// PostClose prints "ADDR: Close complete after 0s".
func (h *HumanHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	h.ephemeralLines().PostClose(addr, elapsed, failed)
}

var _ ephemeral.Hooks = (*JSONView)(nil)

// ephemeralHookJSON is the hook of OpenTofu's ephemeral_action_started
// and ephemeral_action_complete messages.
type ephemeralHookJSON struct {
	Resource jsonformat.ResourceAddr `json:"resource"`
	Msg      string                  `json:"Msg"`
}

func (v *JSONView) ephemeral(addr addrs.AbsResourceInstance, msg, typ string) {
	h := ephemeralHookJSON{Resource: resourceToJSON(addr), Msg: msg}
	v.emit("info", addr.String()+": "+msg, typ, map[string]any{"hook": h})
}

// PreOpen writes "ephemeral_action_started" (Opening...).
func (v *JSONView) PreOpen(addr addrs.AbsResourceInstance) {
	v.ephemeral(addr, "Opening...", "ephemeral_action_started")
}

// PostOpen writes "ephemeral_action_complete" (Open complete).
func (v *JSONView) PostOpen(addr addrs.AbsResourceInstance, _ time.Duration, failed bool) {
	if !failed {
		v.ephemeral(addr, "Open complete", "ephemeral_action_complete")
	}
}

// PreClose writes "ephemeral_action_started" (Closing...).
func (v *JSONView) PreClose(addr addrs.AbsResourceInstance) {
	v.ephemeral(addr, "Closing...", "ephemeral_action_started")
}

// PostClose writes "ephemeral_action_complete" (Close complete).
func (v *JSONView) PostClose(addr addrs.AbsResourceInstance, _ time.Duration, failed bool) {
	if !failed {
		v.ephemeral(addr, "Close complete", "ephemeral_action_complete")
	}
}

// The multi-hooks forward the opening and closing of ephemeral resources
// to those of their hooks that observe them.

// eachEphemeral calls f with each of hs that observes ephemeral resources.
func eachEphemeral[H any](hs []H, f func(ephemeral.Hooks)) {
	for _, h := range hs {
		if e, ok := any(h).(ephemeral.Hooks); ok {
			f(e)
		}
	}
}

func (hs MultiRefreshHooks) PreOpen(addr addrs.AbsResourceInstance) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PreOpen(addr) })
}

func (hs MultiRefreshHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PostOpen(addr, elapsed, failed) })
}

func (hs MultiRefreshHooks) PreClose(addr addrs.AbsResourceInstance) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PreClose(addr) })
}

func (hs MultiRefreshHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PostClose(addr, elapsed, failed) })
}

func (hs MultiHooks) PreOpen(addr addrs.AbsResourceInstance) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PreOpen(addr) })
}

func (hs MultiHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PostOpen(addr, elapsed, failed) })
}

func (hs MultiHooks) PreClose(addr addrs.AbsResourceInstance) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PreClose(addr) })
}

func (hs MultiHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	eachEphemeral(hs, func(e ephemeral.Hooks) { e.PostClose(addr, elapsed, failed) })
}
