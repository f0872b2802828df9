package provider

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TypeName is the name of the resource type and of the data source.
const TypeName = "slowcloud_object"

var (
	tagsType   = tftypes.Map{ElementType: tftypes.String}
	objectType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": tftypes.String, "name": tftypes.String, "value": tftypes.String, "tags": tagsType, "revision": tftypes.Number,
	}}
	configType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"endpoint": tftypes.String, "max_retries": tftypes.Number,
	}}
)

func attr(name string, typ tftypes.Type, desc string, set func(*tfprotov6.SchemaAttribute)) *tfprotov6.SchemaAttribute {
	a := &tfprotov6.SchemaAttribute{Name: name, Type: typ, Description: desc}
	set(a)
	return a
}

func required(a *tfprotov6.SchemaAttribute) { a.Required = true }
func optional(a *tfprotov6.SchemaAttribute) { a.Optional = true }
func computed(a *tfprotov6.SchemaAttribute) { a.Computed = true }
func optionalComputed(a *tfprotov6.SchemaAttribute) {
	a.Optional, a.Computed = true, true
}

var providerSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
	attr("endpoint", tftypes.String, "The cloud's URL (default: SLOWCLOUD_ENDPOINT).", optional),
	attr("max_retries", tftypes.Number, "How many times a throttled call is retried before it fails (default 8).", optional),
}}}

var resourceSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Description: "An object of the cloud: every read, create, update and delete is an API call.",
	Attributes: []*tfprotov6.SchemaAttribute{
		attr("id", tftypes.String, "The object's ID, chosen by the cloud.", computed),
		attr("name", tftypes.String, "The object's name; changing it replaces the object.", required),
		attr("value", tftypes.String, "Any text.", optional),
		attr("tags", tagsType, "Any tags.", optional),
		attr("revision", tftypes.Number, "How many times the object has changed, out-of-band changes included.", computed),
	},
}}

var dataSourceSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Description: "Reads an object of the cloud by ID or, without one, by name.",
	Attributes: []*tfprotov6.SchemaAttribute{
		attr("id", tftypes.String, "The object's ID.", optionalComputed),
		attr("name", tftypes.String, "The object's name.", optionalComputed),
		attr("value", tftypes.String, "", computed),
		attr("tags", tagsType, "", computed),
		attr("revision", tftypes.Number, "", computed),
	},
}}
