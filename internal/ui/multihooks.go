package ui

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// MultiRefreshHooks forwards every refresh event to each of its hooks in
// turn, and the data source reads and import-block imports to those that
// observe them.
type MultiRefreshHooks []plan.RefreshHooks

// PreRefresh implements plan.RefreshHooks.
func (hs MultiRefreshHooks) PreRefresh(addr addrs.ObjectAddr, prior cty.Value) {
	for _, h := range hs {
		h.PreRefresh(addr, prior)
	}
}

// PostRefresh implements plan.RefreshHooks.
func (hs MultiRefreshHooks) PostRefresh(addr addrs.ObjectAddr, current cty.Value) {
	for _, h := range hs {
		h.PostRefresh(addr, current)
	}
}

// RefreshesExpected implements plan.RefreshScopeHooks.
func (hs MultiRefreshHooks) RefreshesExpected(certain int, maybe []addrs.ObjectAddr) {
	for _, h := range hs {
		if r, ok := h.(plan.RefreshScopeHooks); ok {
			r.RefreshesExpected(certain, maybe)
		}
	}
}

// NotRefreshed implements plan.RefreshScopeHooks.
func (hs MultiRefreshHooks) NotRefreshed(addr addrs.ObjectAddr, lastRefreshed time.Time) {
	for _, h := range hs {
		if r, ok := h.(plan.RefreshScopeHooks); ok {
			r.NotRefreshed(addr, lastRefreshed)
		}
	}
}

// PreRead implements plan.DataReadHooks.
func (hs MultiRefreshHooks) PreRead(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if r, ok := h.(plan.DataReadHooks); ok {
			r.PreRead(addr)
		}
	}
}

// PostRead implements plan.DataReadHooks.
func (hs MultiRefreshHooks) PostRead(addr addrs.AbsResourceInstance, st cty.Value, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if r, ok := h.(plan.DataReadHooks); ok {
			r.PostRead(addr, st, elapsed, failed)
		}
	}
}

// PrePlanImport implements plan.ImportBlockHooks.
func (hs MultiRefreshHooks) PrePlanImport(addr addrs.AbsResourceInstance, id string) {
	for _, h := range hs {
		if r, ok := h.(plan.ImportBlockHooks); ok {
			r.PrePlanImport(addr, id)
		}
	}
}

// MultiHooks forwards every apply event to each of its hooks in turn.
type MultiHooks []apply.Hooks

// PreApply implements apply.Hooks.
func (hs MultiHooks) PreApply(op apply.Operation) {
	for _, h := range hs {
		h.PreApply(op)
	}
}

// Progress implements apply.Hooks.
func (hs MultiHooks) Progress(op apply.Operation, elapsed time.Duration) {
	for _, h := range hs {
		h.Progress(op, elapsed)
	}
}

// PostApply implements apply.Hooks.
func (hs MultiHooks) PostApply(op apply.Operation, res apply.Result) {
	for _, h := range hs {
		h.PostApply(op, res)
	}
}

// PreProvision implements apply.Hooks.
func (hs MultiHooks) PreProvision(op apply.Operation, typ string) {
	for _, h := range hs {
		h.PreProvision(op, typ)
	}
}

// ProvisionOutput implements apply.Hooks.
func (hs MultiHooks) ProvisionOutput(op apply.Operation, typ, line string) {
	for _, h := range hs {
		h.ProvisionOutput(op, typ, line)
	}
}

// PostProvision implements apply.Hooks.
func (hs MultiHooks) PostProvision(op apply.Operation, typ string, err error) {
	for _, h := range hs {
		h.PostProvision(op, typ, err)
	}
}
