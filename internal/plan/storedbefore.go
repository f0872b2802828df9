package plan

import (
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// storedBefore is a change's prior value kept as the state object that
// records it (its attributes' JSON and sensitive paths, shared with the
// state, which never modifies a recorded object) and decoded with the
// resource type's schema block when it is needed. A destroy of 100,000
// objects would otherwise hold every prior object decoded, several times
// the memory of their JSON, from planning until each delete runs.
type storedBefore struct {
	obj *state.Object
	blk *provider.Block
	// decode, when set instead, gives the value from another encoding
	// (a saved plan's).
	decode func() (cty.Value, error)
}

// StoreBefore keeps the change's prior value as obj, an object of blk's
// type that decodes to it (marked as ObjectValue marks it), instead of
// decoded: Before becomes cty.NilVal and BeforeValue decodes it on each
// call. The caller makes sure obj decodes to the value Before held.
func (c *ResourceInstanceChange) StoreBefore(obj *state.Object, blk *provider.Block) {
	c.Before = cty.NilVal
	c.before = &storedBefore{obj: obj, blk: blk}
}

// StoreBeforeEncoded keeps the change's prior value encoded in a form
// only decode reads (a saved plan's value and sensitive paths, which the
// caller has checked decode): Before becomes cty.NilVal and BeforeValue
// calls decode each time.
func (c *ResourceInstanceChange) StoreBeforeEncoded(decode func() (cty.Value, error)) {
	c.Before = cty.NilVal
	c.before = &storedBefore{decode: decode}
}

// BeforeStored reports whether the prior value is kept encoded (StoreBefore).
func (c *ResourceInstanceChange) BeforeStored() bool { return c.before != nil }

// BeforeValue returns the prior value: Before, or the stored object
// decoded and marked sensitive where its state records a sensitive value
// and where the schema declares one. Each call decodes anew; callers that
// need it several times keep the result for as long as they need it.
func (c *ResourceInstanceChange) BeforeValue() cty.Value {
	sb := c.before
	if sb == nil {
		return c.Before
	}
	if sb.decode != nil {
		v, err := sb.decode()
		if err != nil {
			// StoreBeforeEncoded's caller decoded the same bytes.
			return cty.DynamicVal
		}
		return v
	}
	v, err := sb.obj.Decode(sb.blk.ImpliedType())
	if err != nil {
		// StoreBefore's caller decoded the same bytes with the same type.
		return cty.DynamicVal
	}
	return MarkRecorded(sb.blk, v, RecordedPaths(sb.obj, c.ProviderConfig.Provider, c.Addr.Resource.Resource.Type))
}

// WithBeforeDecoded returns c when its prior value is not stored, and
// otherwise a copy of c whose Before is decoded (BeforeValue), for an
// operation that reads it several times; the copy is dropped with it.
func (c *ResourceInstanceChange) WithBeforeDecoded() *ResourceInstanceChange {
	if c == nil || c.before == nil {
		return c
	}
	d := *c
	d.Before, d.before = c.BeforeValue(), nil
	return &d
}

// DropValues releases the change's values and private data once nothing
// will read them again (its last operation has run).
func (c *ResourceInstanceChange) DropValues() {
	c.Before, c.After, c.before = cty.NilVal, cty.NilVal, nil
	c.PriorPrivate, c.PlannedPrivate = nil, nil
}
