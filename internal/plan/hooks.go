package plan

import (
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
)

// RefreshHooks observes the reads of recorded objects while planning. The
// planner calls them from several goroutines at once.
type RefreshHooks interface {
	// PreRefresh is called before the object at addr is read; prior is
	// its recorded value.
	PreRefresh(addr addrs.ObjectAddr, prior cty.Value)
	// PostRefresh is called after it was read; current is null when the
	// object no longer exists.
	PostRefresh(addr addrs.ObjectAddr, current cty.Value)
}

// RefreshScopeHooks, when the plan's Hooks also implement it, learns how
// many recorded objects the plan will read back, so that progress counts
// only those. Calls come from several goroutines at once.
type RefreshScopeHooks interface {
	// RefreshesExpected is called once, before the first object is read:
	// the plan reads back certain objects for sure, and each object of
	// maybe is either read back too (PreRefresh) or planned as recorded
	// under -refresh=changed (NotRefreshed). The hook may keep maybe.
	RefreshesExpected(certain int, maybe []addrs.ObjectAddr)
	// NotRefreshed is called when a -refresh=changed plan plans the
	// object at addr as recorded, without reading it back.
	NotRefreshed(addr addrs.ObjectAddr, lastRefreshed time.Time)
}

// DataReadHooks, when the plan's Hooks also implement it, observes the data
// sources read while planning, from several goroutines at once.
type DataReadHooks interface {
	// PreRead is called before the data source instance at addr is read.
	PreRead(addr addrs.AbsResourceInstance)
	// PostRead is called after it was read; state is what the provider
	// returned, and failed tells that the read reported errors.
	PostRead(addr addrs.AbsResourceInstance, state cty.Value, elapsed time.Duration, failed bool)
}

// ImportBlockHooks, when the plan's Hooks also implement it, observes the
// imports of import blocks while planning; the read of each imported object
// is reported to PreRefresh and PostRefresh.
type ImportBlockHooks interface {
	// PrePlanImport is called before the provider imports id into addr.
	PrePlanImport(addr addrs.AbsResourceInstance, id string)
}

// ImportHooks observes an import, as OpenTofu's UI reports it. Calls come
// from the goroutine that called Import.
type ImportHooks interface {
	// PreImport is called before the provider imports id into addr.
	PreImport(addr addrs.AbsResourceInstance, id string)
	// PostImport is called with the objects the provider returned for addr.
	PostImport(addr addrs.AbsResourceInstance, imported []provider.ImportedObject)
	// PreRefresh is called before an imported object is read back; prior
	// is the object the import returned.
	PreRefresh(addr addrs.AbsResourceInstance, prior cty.Value)
}
