package plan

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// A resource identity (Terraform 1.12, OpenTofu 1.12) is a small object
// that names a managed object for the provider: the provider returns it
// with every read, plan, apply and import, and state records it beside
// the attributes (identity, identity_schema_version). An object keeps its
// identity for its life: only a replacement gives it a new one.

// HasIdentity reports whether id is an identity (not cty.NilVal, not null).
func HasIdentity(id cty.Value) bool {
	return id != cty.NilVal && !id.IsNull()
}

// SetIdentity records identity id (of the identity schema of sch) in obj,
// with the schema's identity version. It leaves obj as it is when id is
// no identity, so what another tool recorded is carried through.
func SetIdentity(obj *state.Object, sch provider.Schema, id cty.Value) error {
	if !HasIdentity(id) || sch.Identity == nil {
		return nil
	}
	id, _ = id.UnmarkDeep()
	b, err := ctyjson.Marshal(id, sch.Identity.ImpliedType())
	if err != nil {
		return fmt.Errorf("encoding the resource identity: %w", err)
	}
	v := uint64(sch.IdentityVersion)
	obj.IdentityJSON, obj.IdentitySchemaVersion = b, &v
	return nil
}

// IdentityUpgrade returns the stored identity of obj as an upgrade request
// carries it.
func IdentityUpgrade(req provider.UpgradeRequest, obj *state.Object) provider.UpgradeRequest {
	if obj.IdentityJSON != nil {
		req.RawIdentityJSON = obj.IdentityJSON
		if obj.IdentitySchemaVersion != nil {
			req.IdentityVersion = int64(*obj.IdentitySchemaVersion)
		}
	}
	return req
}

// CheckIdentity returns an error diagnostic when an identity the provider
// returned for addr (by method) is not one: unknown values where it must
// be known (anything but a planned create or replacement), as Terraform
// checks it.
func CheckIdentity(id cty.Value, mustBeKnown bool, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if !HasIdentity(id) || !mustBeKnown || id.IsWhollyKnown() {
		return nil
	}
	return diag.Diagnostics{{Severity: diag.Error, Summary: "Provider produced invalid identity", Address: addr,
		Detail: fmt.Sprintf("Provider %q returned an identity with unknown values for %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", pc.Provider.ForDisplay(), addr)}}
}

// CheckIdentityKept returns an error diagnostic when the provider gave an
// existing object (prior identity prior) another identity during op ("read",
// "plan" or "apply") than it had: an object is replaced to get a new one.
// An object recorded without an identity may get its first.
func CheckIdentityKept(op string, prior, next cty.Value, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if !HasIdentity(prior) || !HasIdentity(next) || !next.IsWhollyKnown() {
		return nil
	}
	if eq := prior.Equals(next); eq.IsKnown() && eq.True() {
		return nil
	}
	show := func(v cty.Value) string {
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			return v.GoString()
		}
		return string(b)
	}
	return diag.Diagnostics{{Severity: diag.Error, Summary: "Unexpected Identity Change", Address: addr,
		Detail: fmt.Sprintf("During the %s operation, provider %q changed the resource identity of %s, which only a replacement may do.\n\nPrior identity: %s\nNew identity:   %s\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
			op, pc.Provider.ForDisplay(), addr, show(prior), show(next))}}
}

// IdentityOf returns the identity a response carried, a null value of
// the schema's identity type when it carried none; cty.NilVal when the
// type declares no identity.
func IdentityOf(sch provider.Schema, id cty.Value) cty.Value {
	if sch.Identity == nil {
		return cty.NilVal
	}
	if id == cty.NilVal {
		return cty.NullVal(sch.Identity.ImpliedType())
	}
	return id
}

// NullIdentity is the identity of no object (a delete's planned one).
func NullIdentity(sch provider.Schema) cty.Value {
	return IdentityOf(sch, cty.NilVal)
}

// IdentityRecorded reports whether obj records identity id already (or id
// is none, so that nothing is to be recorded).
func IdentityRecorded(obj *state.Object, sch provider.Schema, id cty.Value) bool {
	if !HasIdentity(id) || sch.Identity == nil {
		return true
	}
	if obj.IdentityJSON == nil || obj.IdentitySchemaVersion == nil || *obj.IdentitySchemaVersion != uint64(sch.IdentityVersion) {
		return false
	}
	stored, err := ctyjson.Unmarshal(obj.IdentityJSON, sch.Identity.ImpliedType())
	if err != nil {
		return false
	}
	return stored.RawEquals(id)
}

// named is the import ID, or the identity as JSON for an import by
// identity.
func (imp *Importing) named() string {
	if imp.ID != "" || imp.Identity == cty.NilVal {
		return imp.ID
	}
	return IdentityText(imp.Identity)
}

// IdentityText is an identity as compact JSON.
func IdentityText(id cty.Value) string {
	b, err := ctyjson.Marshal(id, id.Type())
	if err != nil {
		return "{}"
	}
	return string(b)
}
