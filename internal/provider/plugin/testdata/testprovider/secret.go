package main

import (
	"strings"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// test_secret (resource and data source) has attributes its schema
// declares sensitive, for the tests of what rig keeps hidden:
//
//   - the resource: id (computed, "id-secret-KEY"), key (required), token
//     (optional, sensitive), password (computed, sensitive: "s3cr3t-KEY",
//     unknown until created) and credential blocks with user and pin
//     (optional, sensitive), and pin_wo (optional, sensitive, write-only:
//     never in a planned or new object) with pin_wo_version (optional),
//     which a change of the write-only value goes with. A key starting
//     with "bad" fails validation with a message that quotes it.
//   - the data source: key (required) and password (computed, sensitive:
//     "s3cr3t-ds-KEY").
var (
	credentialType = cty.Object(map[string]cty.Type{"user": cty.String, "pin": cty.String})
	secretType     = cty.Object(map[string]cty.Type{
		"id": cty.String, "key": cty.String, "token": cty.String, "password": cty.String,
		"pin_wo": cty.String, "pin_wo_version": cty.Number, "credential": cty.List(credentialType),
	})
	secretDataType = cty.Object(map[string]cty.Type{"key": cty.String, "password": cty.String})
)

func secretSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, "c"),
			attr("key", cty.String, "r"),
			attr("token", cty.String, "os"),
			attr("password", cty.String, "cs"),
			attr("pin_wo", cty.String, "osw"),
			attr("pin_wo_version", cty.Number, "o"),
		},
		BlockTypes: []*tfplugin6.Schema_NestedBlock{
			block(tfplugin6.Schema_NestedBlock_LIST, "credential", 0, 0, attr("user", cty.String, "o"), attr("pin", cty.String, "os")),
		},
	}}
}

func secretDataSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		attr("key", cty.String, "r"),
		attr("password", cty.String, "cs"),
	}}}
}

// validateSecret rejects a key starting with "bad", quoting it, as
// providers quote the values they reject.
func validateSecret(cfg cty.Value) []*tfplugin6.Diagnostic {
	key := cfg.GetAttr("key")
	if key.IsKnown() && !key.IsNull() && strings.HasPrefix(key.AsString(), "bad") {
		return []*tfplugin6.Diagnostic{errDiag("Invalid key", `The key "`+key.AsString()+`" is not allowed.`, attrStep("key"))}
	}
	return nil
}

// planSecret leaves the password unknown on create and the write-only
// pin null.
func planSecret(prior cty.Value, m map[string]cty.Value) {
	if prior.IsNull() {
		m["password"] = cty.UnknownVal(cty.String)
	}
	m["pin_wo"] = cty.NullVal(cty.String)
}

// applySecret fills in the id and the password; the write-only pin is
// not kept.
func applySecret(m map[string]cty.Value) {
	m["pin_wo"] = cty.NullVal(cty.String)
	key := m["key"].AsString()
	if !m["id"].IsKnown() {
		m["id"] = cty.StringVal("id-secret-" + key)
	}
	if !m["password"].IsKnown() {
		m["password"] = cty.StringVal("s3cr3t-" + key)
	}
}

func readSecretData(cfg cty.Value) cty.Value {
	key := cfg.GetAttr("key")
	pw := cty.UnknownVal(cty.String)
	if key.IsKnown() && !key.IsNull() {
		pw = cty.StringVal("s3cr3t-ds-" + key.AsString())
	}
	return cty.ObjectVal(map[string]cty.Value{"key": key, "password": pw})
}
