package ui

import (
	"fmt"
	"io"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
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

var _ plan.RefreshHooks = (*RefreshView)(nil)

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
	h := refreshHookJSON{Resource: resourceToJSON(addr.Instance)}
	if id := objectID(prior); id != "" {
		h.IDKey, h.IDValue = "id", id
	}
	v.emit("info", fmt.Sprintf("%s: Refreshing state...%s", refreshAddr(addr), idSuffix(h.IDValue)), "refresh_start", map[string]any{"hook": h})
}

// PostRefresh writes "refresh_complete".
func (v *JSONView) PostRefresh(addr addrs.ObjectAddr, current cty.Value) {
	h := refreshHookJSON{Resource: resourceToJSON(addr.Instance)}
	if id := objectID(current); id != "" {
		h.IDKey, h.IDValue = "id", id
	}
	v.emit("info", fmt.Sprintf("%s: Refresh complete%s", refreshAddr(addr), idSuffix(h.IDValue)), "refresh_complete", map[string]any{"hook": h})
}

type refreshHookJSON struct {
	Resource resourceAddrJSON `json:"resource"`
	IDKey    string           `json:"id_key,omitempty"`
	IDValue  string           `json:"id_value,omitempty"`
}
