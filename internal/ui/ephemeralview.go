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

// PreOpen prints "ADDR: Opening...".
func (v *RefreshView) PreOpen(addr addrs.AbsResourceInstance) {
	v.print(colorize("[reset][bold]", v.color) + addr.String() + ": Opening..." + colorize("[reset]", v.color))
}

// PostOpen prints "ADDR: Open complete after 1s".
func (v *RefreshView) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		v.print(colorize("[reset][bold]", v.color) + addr.String() + ": Open complete after " + elapsed.Round(time.Second).String() + colorize("[reset]", v.color))
	}
}

// PreClose prints "ADDR: Closing...".
func (v *RefreshView) PreClose(addr addrs.AbsResourceInstance) {
	v.print(colorize("[reset][bold]", v.color) + addr.String() + ": Closing..." + colorize("[reset]", v.color))
}

// PostClose prints "ADDR: Close complete after 0s".
func (v *RefreshView) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		v.print(colorize("[reset][bold]", v.color) + addr.String() + ": Close complete after " + elapsed.Round(time.Second).String() + colorize("[reset]", v.color))
	}
}

// PreOpen prints "ADDR: Opening...".
func (h *HumanHooks) PreOpen(addr addrs.AbsResourceInstance) {
	h.println("[reset][bold]%s: Opening...[reset]", addr)
}

// PostOpen prints "ADDR: Open complete after 1s".
func (h *HumanHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		h.println("[reset][bold]%s: Open complete after %s[reset]", addr, elapsed.Round(time.Second))
	}
}

// PreClose prints "ADDR: Closing...".
func (h *HumanHooks) PreClose(addr addrs.AbsResourceInstance) {
	h.println("[reset][bold]%s: Closing...[reset]", addr)
}

// PostClose prints "ADDR: Close complete after 0s".
func (h *HumanHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	if !failed {
		h.println("[reset][bold]%s: Close complete after %s[reset]", addr, elapsed.Round(time.Second))
	}
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

func (hs MultiRefreshHooks) PreOpen(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreOpen(addr)
		}
	}
}

func (hs MultiRefreshHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostOpen(addr, elapsed, failed)
		}
	}
}

func (hs MultiRefreshHooks) PreClose(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreClose(addr)
		}
	}
}

func (hs MultiRefreshHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostClose(addr, elapsed, failed)
		}
	}
}

func (hs MultiHooks) PreOpen(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreOpen(addr)
		}
	}
}

func (hs MultiHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostOpen(addr, elapsed, failed)
		}
	}
}

func (hs MultiHooks) PreClose(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreClose(addr)
		}
	}
}

func (hs MultiHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostClose(addr, elapsed, failed)
		}
	}
}
