package ui

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// identityJSON is a resource identity as the JSON plan shows it: its
// attributes, those not known until apply null; nil for no identity.
func identityJSON(id cty.Value) (json.RawMessage, error) {
	if id == cty.NilVal || id.IsNull() {
		return nil, nil
	}
	id, _ = id.UnmarkDeep()
	if !id.IsWhollyKnown() {
		id = cty.UnknownAsNull(id)
	}
	return ctyjson.Marshal(id, id.Type())
}

// schemaOf returns the schema of resource r of provider p; false when
// schemas is nil or does not know it.
func schemaOf(schemas SchemaSource, p addrs.Provider, r addrs.Resource) (provider.Schema, bool) {
	if schemas == nil {
		return provider.Schema{}, false
	}
	return schemas.ResourceTypeSchema(p, r.Mode, r.Type)
}

// importedFrom is the line that says what a change that also imports
// imports: `(imported from "ID")`, or the identity an import block named,
// indented as OpenTofu shows it.
func importedFrom(imp *plan.Importing) string {
	if imp.ID != "" || imp.Identity == cty.NilVal {
		return fmt.Sprintf("\n  # [reset](imported from %q)", imp.ID)
	}
	raw, err := identityJSON(imp.Identity)
	if err != nil || raw == nil {
		return "\n  # [reset](will be imported first)"
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "  # ", "  "); err != nil {
		return fmt.Sprintf("\n  # [reset]imported using resource identity %q", raw)
	}
	return "\n  # [reset]imported using resource identity: " + out.String()
}
