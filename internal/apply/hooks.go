package apply

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// Operation is one step of an apply as observers see it: one object's
// create, update, read or delete. A replacement is two operations. The
// check of an unchanged object's conditions is one too, with Action NoOp:
// it calls no provider, and views show nothing of it, as OpenTofu's do.
type Operation struct {
	Addr    addrs.AbsResourceInstance
	Deposed addrs.DeposedKey
	// Action is Create, Update, Read, Delete or NoOp; the halves of a
	// replacement are reported separately.
	Action plan.Action
	// Replacing is the planned action when this operation is half of a replacement.
	Replacing plan.Action
	// IDValue is the object's "id" attribute before the operation, "" when unknown or absent.
	IDValue string
}

// Result is how an operation ended.
type Result struct {
	// NewIDValue is the object's "id" after the operation, "" when none.
	NewIDValue string
	// NewState is the object after the operation; null after a delete.
	NewState cty.Value
	Elapsed  time.Duration
	// Err is the failure, nil on success.
	Err error
}

// Hooks observes an apply. Methods are called from worker goroutines, possibly
// concurrently; implementations must be safe for concurrent use and quick.
type Hooks interface {
	// PreApply is called before an operation starts.
	PreApply(op Operation)
	// Progress is called periodically while an operation runs.
	Progress(op Operation, elapsed time.Duration)
	// PostApply is called after an operation ends, successfully or not.
	PostApply(op Operation, res Result)
	// PreProvision is called before a provisioner of type typ runs as part
	// of op (after its create, or before its delete).
	PreProvision(op Operation, typ string)
	// ProvisionOutput is called with each line a running provisioner
	// writes, in order (or a notice in its place when the provisioner's
	// configuration holds a sensitive value).
	ProvisionOutput(op Operation, typ string, line string)
	// PostProvision is called after the provisioner ends; err is its
	// failure, nil on success.
	PostProvision(op Operation, typ string, err error)
}

// NoHooks ignores every event.
type NoHooks struct{}

// PreApply does nothing.
func (NoHooks) PreApply(Operation) {}

// Progress does nothing.
func (NoHooks) Progress(Operation, time.Duration) {}

// PostApply does nothing.
func (NoHooks) PostApply(Operation, Result) {}

// PreProvision does nothing.
func (NoHooks) PreProvision(Operation, string) {}

// ProvisionOutput does nothing.
func (NoHooks) ProvisionOutput(Operation, string, string) {}

// PostProvision does nothing.
func (NoHooks) PostProvision(Operation, string, error) {}
