package providertest

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// ProviderType is the provider's type name: tests register it under
// addrs.NewDefaultProvider(ProviderType), so its resource types are named test_*.
const ProviderType = "test"

// Resource types offered by the provider; both have ThingSchema.
const (
	// ThingType is the main resource type.
	ThingType = "test_thing"
	// OtherType has the same schema, for tests of provider and type handling.
	OtherType = "test_other"
	// SecretType has SecretSchema: ThingSchema's attributes and sensitive ones.
	SecretType = "test_secret"
)

// Address returns the provider's source address, registry.terraform.io/hashicorp/test.
func Address() addrs.Provider { return addrs.NewDefaultProvider(ProviderType) }

// ThingSchema is the schema (version 0) of test_thing and test_other:
//
//   - id (string, computed): "id-N", allocated on create.
//   - key (string, optional): a stable label tests set ("a", "b", "a#2");
//     operations are recorded and faults matched by it (by id when unset).
//   - name (string, optional): when set, unique among live objects of all types.
//   - value (string, optional): updates in place.
//   - replace_key (string, optional): a change forces replacement.
//   - output (string, computed): equals value after apply; unknown in the
//     plan on create and whenever value changes.
//   - ref (list of string, optional): stored only, so configurations can
//     reference other resources.
//
// The Block is shared and must not be modified.
func ThingSchema() provider.Schema { return provider.Schema{Block: thingBlock} }

var thingBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"id":          {Type: cty.String, Computed: true},
	"key":         {Type: cty.String, Optional: true},
	"name":        {Type: cty.String, Optional: true},
	"value":       {Type: cty.String, Optional: true},
	"replace_key": {Type: cty.String, Optional: true},
	"output":      {Type: cty.String, Computed: true},
	"ref":         {Type: cty.List(cty.String), Optional: true},
}}

// SecretSchema is the schema (version 0) of test_secret: ThingSchema's
// attributes, which behave as they do for test_thing, and attributes the
// schema declares sensitive:
//
//   - password (string, computed, sensitive): "s3cr3t-" followed by the id,
//     filled in on create (unknown in the plan), kept afterwards.
//   - token (string, optional, sensitive): stored only.
//   - credential (list of blocks): user (string, optional) and pin
//     (string, optional, sensitive), stored only.
//
// The Block is shared and must not be modified.
func SecretSchema() provider.Schema { return provider.Schema{Block: secretBlock} }

var secretBlock = func() *provider.Block {
	attrs := map[string]*provider.Attribute{
		"password": {Type: cty.String, Computed: true, Sensitive: true},
		"token":    {Type: cty.String, Optional: true, Sensitive: true},
	}
	for name, a := range thingBlock.Attributes {
		attrs[name] = a
	}
	return &provider.Block{Attributes: attrs, BlockTypes: map[string]*provider.NestedBlock{
		"credential": {Nesting: provider.NestingList, Block: provider.Block{Attributes: map[string]*provider.Attribute{
			"user": {Type: cty.String, Optional: true},
			"pin":  {Type: cty.String, Optional: true, Sensitive: true},
		}}},
	}}
}()

// Schemas returns the provider's schemas: a provider configuration with
// one optional attribute, region (which names a configured instance: see
// InstanceFactory), a provider_meta schema with one optional attribute,
// module_name (recorded in Op.Meta), test_thing, test_other and
// test_secret, the ephemeral test_token, no data sources. Each call
// returns new maps the caller owns; the Blocks are shared.
func Schemas() *provider.Schemas {
	return &provider.Schemas{
		Provider:           provider.Schema{Block: providerBlock},
		ProviderMeta:       &provider.Schema{Block: metaBlock},
		ResourceTypes:      map[string]provider.Schema{ThingType: ThingSchema(), OtherType: ThingSchema(), SecretType: SecretSchema()},
		DataSources:        map[string]provider.Schema{},
		EphemeralResources: map[string]provider.Schema{TokenType: TokenSchema()},
	}
}

var providerBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"region": {Type: cty.String, Optional: true},
}}

var metaBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"module_name": {Type: cty.String, Optional: true},
}}

func knownType(typeName string) bool {
	return typeName == ThingType || typeName == OtherType || typeName == SecretType
}

// objectType is the cty type of the objects of test_thing and test_other.
var objectType = ThingSchema().Block.ImpliedType()

// typeOf returns the cty type of the objects of a resource type.
func typeOf(typeName string) cty.Type {
	if typeName == SecretType {
		return secretBlock.ImpliedType()
	}
	return objectType
}

// str returns the string attribute attr of obj, "" when obj or the attribute
// is null or unknown.
func str(obj cty.Value, attr string) string {
	if obj.IsNull() || !obj.IsKnown() {
		return ""
	}
	v := obj.GetAttr(attr)
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(cty.String) {
		return ""
	}
	return v.AsString()
}
