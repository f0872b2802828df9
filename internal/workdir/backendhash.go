package workdir

import (
	"fmt"
	"maps"

	httpbackend "github.com/rig-iac/rig/internal/backend/http"
	"github.com/rig-iac/rig/internal/backend/pg"
	"github.com/rig-iac/rig/internal/backend/s3"
	"github.com/zclconf/go-cty/cty"
)

// backendHashForm is whose hash of the backend block a record in
// .terraform/terraform.tfstate holds. Terraform and OpenTofu record the
// hash of the block (without -backend-config values) as their own backend
// schema decodes it: go-cty's Value.Hash of the tuple [TYPE, object of every
// setting of the schema, null where the block leaves it out]. Their pg
// schemas differ (OpenTofu's adds table_name and index_name), so the same
// block hashes differently; and rig's first records held a hash of its own.
// A record of any of them is accepted for the block it was made from.
type backendHashForm uint8

const (
	// hashTerraform is Terraform's hash, over Terraform's schema.
	hashTerraform backendHashForm = iota + 1
	// hashOpenTofu is OpenTofu's hash, over OpenTofu's schema.
	hashOpenTofu
	// hashRigLegacy is the CRC-32 of rig's own text form (specHash), which
	// earlier rig versions recorded; rig accepts it and no longer writes it.
	hashRigLegacy
)

// terraformLacks are the settings of a backend type that OpenTofu's schema
// has and Terraform's does not.
var terraformLacks = map[string][]string{"pg": pg.OpenTofuOnly, "http": httpbackend.OpenTofuOnly, "s3": s3.OpenTofuOnly}

// formSettings returns the settings of backend type typ in form's schema,
// with whether each is a boolean; the caller must not modify the result.
func formSettings(form backendHashForm, typ string) map[string]bool {
	all := backendSettings[typ]
	if form != hashTerraform || len(terraformLacks[typ]) == 0 {
		return all
	}
	out := maps.Clone(all)
	for _, name := range terraformLacks[typ] {
		delete(out, name)
	}
	return out
}

// representable reports whether form's schema has every setting given,
// nested attributes included.
func representable(form backendHashForm, typ string, settings map[string]string) bool {
	schema := formSettings(form, typ)
	for name, v := range settings {
		if _, ok := schema[name]; !ok {
			return false
		}
		if _, ok := formValue(form, typ, name, v); !ok {
			return false
		}
	}
	return true
}

// formType is the type of a setting in form's schema: the type rig gives
// it but for the s3 backend's nested objects, whose attributes differ
// between Terraform and OpenTofu.
func formType(form backendHashForm, typ, name string) cty.Type {
	if typ == "s3" {
		if form == hashTerraform {
			return s3.TerraformSchema[name]
		}
		return s3.OpenTofuSchema[name]
	}
	return settingType(typ, name)
}

// formValue is a setting's value (as a backendSpec holds it) in form's
// type; ok is false when that type cannot hold it.
func formValue(form backendHashForm, typ, name, s string) (cty.Value, bool) {
	v := settingValue(s, settingType(typ, name))
	return s3FormValue(v, formType(form, typ, name))
}

// otherForm is the form of the other tool: OpenTofu's for Terraform's.
func otherForm(form backendHashForm) backendHashForm {
	if form == hashTerraform {
		return hashOpenTofu
	}
	return hashTerraform
}

// recordValue is a setting's value in the config of a record in form: as
// recordJSON gives it, but an s3 nested object in form's type, without the
// null attributes the other tool's schema lacks (typedSettingJSON).
func recordValue(form backendHashForm, typ, name, s string) (any, error) {
	t := formType(form, typ, name)
	if !t.IsObjectType() && !t.IsSetType() && !t.IsListType() {
		return recordJSON(s, settingType(typ, name)), nil
	}
	raw, err := typedSettingJSON(s, settingType(typ, name), t, formType(otherForm(form), typ, name))
	if err != nil {
		return nil, fmt.Errorf("recording setting %q: %w", name, err)
	}
	return raw, nil
}

// blockHash returns the hash form's tool records for a block of type typ
// with the given settings (as strings, "true"/"false" for booleans); ok is
// false when that tool's backend has not every setting.
func blockHash(form backendHashForm, typ string, settings map[string]string) (hash uint64, ok bool) {
	if form == hashRigLegacy {
		return specHash(backendSpec{Type: typ, Settings: settings}), true
	}
	if !representable(form, typ, settings) {
		return 0, false
	}
	schema := formSettings(form, typ)
	attrs := make(map[string]cty.Value, len(schema))
	for name := range schema {
		if v, set := settings[name]; set {
			attrs[name], _ = formValue(form, typ, name, v)
		} else {
			attrs[name] = cty.NullVal(formType(form, typ, name))
		}
	}
	obj := cty.EmptyObjectVal
	if len(attrs) > 0 {
		obj = cty.ObjectVal(attrs)
	}
	return uint64(cty.TupleVal([]cty.Value{cty.StringVal(typ), obj}).Hash()), true
}

// preferredForm is the form rig records for a block in a directory whose
// record does not say otherwise: Terraform's where Terraform's schema has
// every setting used (Terraform reads only records of its own schema, and
// OpenTofu reads those too), else OpenTofu's.
func preferredForm(typ string, block, settings map[string]string) backendHashForm {
	if representable(hashTerraform, typ, block) && representable(hashTerraform, typ, settings) {
		return hashTerraform
	}
	return hashOpenTofu
}

// recordedFor reports whether rec, a record init wrote, was written for the
// backend block the configuration has now (want, from blockSpec), and in
// which form: its hash is the block's in one of the forms, or, as
// Terraform and OpenTofu also accept, it records exactly the block's
// settings (its hash from another form; form is then 0).
func (rec backendSpec) recordedFor(want backendSpec) (form backendHashForm, ok bool) {
	if rec.Type != want.Type {
		return 0, false
	}
	for _, f := range []backendHashForm{hashTerraform, hashOpenTofu, hashRigLegacy} {
		if h, ok := blockHash(f, want.Type, want.block); ok && h == rec.Hash {
			return f, true
		}
	}
	return 0, maps.Equal(rec.Settings, want.block)
}

// withForm returns spec with the hash of its block in form (the preferred
// form when form is 0, hashRigLegacy, or cannot hold the settings).
func (spec backendSpec) withForm(form backendHashForm) backendSpec {
	if form == 0 || form == hashRigLegacy || !representable(form, spec.Type, spec.Settings) {
		form = preferredForm(spec.Type, spec.block, spec.Settings)
	}
	spec.Form = form
	spec.Hash, _ = blockHash(form, spec.Type, spec.block)
	return spec
}
