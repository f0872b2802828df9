package ui

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/ephemeral"
)

// MultiHooks forwards the checks of health gates and the renewals of
// ephemeral resources to those of its hooks that observe them (a
// timeline.Recorder).
var (
	_ apply.GateHooks      = MultiHooks(nil)
	_ ephemeral.RenewHooks = MultiHooks(nil)
)

// GateCheckStart implements apply.GateHooks.
func (hs MultiHooks) GateCheckStart(addr addrs.AbsResourceInstance, check int, reads []apply.GateRead) {
	for _, h := range hs {
		if g, ok := h.(apply.GateHooks); ok {
			g.GateCheckStart(addr, check, reads)
		}
	}
}

// GateCheckComplete implements apply.GateHooks.
func (hs MultiHooks) GateCheckComplete(addr addrs.AbsResourceInstance, check int, err error) {
	for _, h := range hs {
		if g, ok := h.(apply.GateHooks); ok {
			g.GateCheckComplete(addr, check, err)
		}
	}
}

// PreRenew implements ephemeral.RenewHooks.
func (hs MultiHooks) PreRenew(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if r, ok := h.(ephemeral.RenewHooks); ok {
			r.PreRenew(addr)
		}
	}
}

// PostRenew implements ephemeral.RenewHooks.
func (hs MultiHooks) PostRenew(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if r, ok := h.(ephemeral.RenewHooks); ok {
			r.PostRenew(addr, elapsed, failed)
		}
	}
}
