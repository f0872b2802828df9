package ui

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
)

// RefreshView prints the refresh of recorded objects while planning, as
// OpenTofu does before a plan: "ADDR: Refreshing state... [id=ID]". It is
// safe for concurrent use.
type RefreshView struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
}

var (
	_ plan.RefreshHooks  = (*RefreshView)(nil)
	_ plan.DataReadHooks = (*RefreshView)(nil)
	_ plan.DataReadHooks = (*JSONView)(nil)

	_ plan.ImportBlockHooks = (*RefreshView)(nil)
)

// NewRefreshView returns a view printing to w.
func NewRefreshView(w io.Writer, opts RenderOptions) *RefreshView {
	return &RefreshView{w: w, color: opts.Color}
}

// PreRefresh prints "ADDR: Refreshing state... [id=ID]".
func (v *RefreshView) PreRefresh(addr addrs.ObjectAddr, prior cty.Value) {
	line := fmt.Sprintf(colorize("[reset][bold]%s: Refreshing state...%s[reset]", v.color), refreshAddr(addr), idSuffix(objectID(prior))) + "\n"
	v.mu.Lock()
	defer v.mu.Unlock()
	_, _ = io.WriteString(v.w, line)
}

// PostRefresh prints nothing.
func (v *RefreshView) PostRefresh(addrs.ObjectAddr, cty.Value) {}

// PrePlanImport prints "ADDR: Preparing import... [id=ID]". The -json
// stream has no message for it, as OpenTofu's has none.
func (v *RefreshView) PrePlanImport(addr addrs.AbsResourceInstance, id string) {
	v.print(fmt.Sprintf(colorize("[reset][bold]%s: Preparing import...%s[reset]", v.color), addr, idSuffix(id)))
}

// PreRead prints "ADDR: Reading...".
func (v *RefreshView) PreRead(addr addrs.AbsResourceInstance) {
	v.print(fmt.Sprintf(colorize("[reset][bold]%s: Reading...[reset]", v.color), addr))
}

// PostRead prints "ADDR: Read complete after 1s [id=ID]"; nothing for a
// failed read, whose diagnostics tell.
func (v *RefreshView) PostRead(addr addrs.AbsResourceInstance, state cty.Value, elapsed time.Duration, failed bool) {
	if failed {
		return
	}
	v.print(fmt.Sprintf(colorize("[reset][bold]%s: Read complete after %s%s[reset]", v.color), addr, elapsed.Round(time.Second), idSuffix(objectID(state))))
}

func (v *RefreshView) print(line string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, _ = io.WriteString(v.w, line+"\n")
}

// refreshAddr names a refreshed object: its instance, and for a deposed
// object its key.
func refreshAddr(a addrs.ObjectAddr) string {
	if a.Deposed == addrs.NotDeposed {
		return a.Instance.String()
	}
	return fmt.Sprintf("%s (deposed object %s)", a.Instance, a.Deposed)
}

// PreRefresh writes "refresh_start".
func (v *JSONView) PreRefresh(addr addrs.ObjectAddr, prior cty.Value) {
	h := jsonformat.RefreshHook{Resource: resourceToJSON(addr.Instance)}
	if id := objectID(prior); id != "" {
		h.IDKey, h.IDValue = "id", id
	}
	v.emit("info", fmt.Sprintf("%s: Refreshing state...%s", refreshAddr(addr), idSuffix(h.IDValue)), "refresh_start", map[string]any{"hook": h})
}

// PostRefresh writes "refresh_complete".
func (v *JSONView) PostRefresh(addr addrs.ObjectAddr, current cty.Value) {
	h := jsonformat.RefreshHook{Resource: resourceToJSON(addr.Instance)}
	if id := objectID(current); id != "" {
		h.IDKey, h.IDValue = "id", id
	}
	v.emit("info", fmt.Sprintf("%s: Refresh complete%s", refreshAddr(addr), idSuffix(h.IDValue)), "refresh_complete", map[string]any{"hook": h})
}

// PreRead writes "apply_start" with the action "read", as a read while
// planning is reported.
func (v *JSONView) PreRead(addr addrs.AbsResourceInstance) {
	v.PreApply(apply.Operation{Addr: addr, Action: plan.Read})
}

// PostRead writes "apply_complete" or "apply_errored" with the action "read".
func (v *JSONView) PostRead(addr addrs.AbsResourceInstance, state cty.Value, elapsed time.Duration, failed bool) {
	res := apply.Result{NewIDValue: objectID(state), Elapsed: elapsed}
	if failed {
		res.Err = errDataReadFailed
	}
	v.PostApply(apply.Operation{Addr: addr, Action: plan.Read}, res)
}

// errDataReadFailed stands for a failed read, whose diagnostics follow.
var errDataReadFailed = errors.New("reading the data source failed")
