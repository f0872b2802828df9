package jsonformat

import (
	"encoding/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
)

// ProviderSchemas is the JSON provider schema representation (providers
// schema -json), as Terraform's jsonprovider package defines it: field order
// and omitempty as there.
type ProviderSchemas struct {
	FormatVersion string                     `json:"format_version"`
	Schemas       map[string]*ProviderSchema `json:"provider_schemas,omitempty"`
}

// ProviderSchema is one provider's schemas: its configuration, resource
// types, data sources, ephemeral resource types and functions, as both
// tools write them, and the list resource types and actions Terraform
// adds.
type ProviderSchema struct {
	Provider                 *Schema                  `json:"provider,omitempty"`
	ResourceSchemas          map[string]*Schema       `json:"resource_schemas,omitempty"`
	DataSourceSchemas        map[string]*Schema       `json:"data_source_schemas,omitempty"`
	EphemeralResourceSchemas map[string]*Schema       `json:"ephemeral_resource_schemas,omitempty"`
	ListResourceSchemas      map[string]*Schema       `json:"list_resource_schemas,omitempty"`
	Functions                map[string]*Function     `json:"functions,omitempty"`
	ActionSchemas            map[string]*ActionSchema `json:"action_schemas,omitempty"`
}

// ActionSchema is an action type's configuration block.
type ActionSchema struct {
	Block *Block `json:"block,omitempty"`
}

// Schema is one versioned schema.
type Schema struct {
	Version int64  `json:"version"`
	Block   *Block `json:"block,omitempty"`
}

// Block is a schema block: attributes and nested block types.
type Block struct {
	Attributes      map[string]*Attribute `json:"attributes,omitempty"`
	BlockTypes      map[string]*BlockType `json:"block_types,omitempty"`
	Description     string                `json:"description,omitempty"`
	DescriptionKind string                `json:"description_kind,omitempty"`
	Deprecated      bool                  `json:"deprecated,omitempty"`
	// DeprecationMessage is OpenTofu 1.12's: what to use instead.
	DeprecationMessage string `json:"deprecation_message,omitempty"`
}

// BlockType is a nested block type with its nesting mode.
type BlockType struct {
	NestingMode string `json:"nesting_mode,omitempty"`
	Block       *Block `json:"block,omitempty"`
	MinItems    uint64 `json:"min_items,omitempty"`
	MaxItems    uint64 `json:"max_items,omitempty"`
}

// Attribute is an attribute of a block: its type, or nested type.
type Attribute struct {
	Type            json.RawMessage `json:"type,omitempty"`
	NestedType      *NestedType     `json:"nested_type,omitempty"`
	Description     string          `json:"description,omitempty"`
	DescriptionKind string          `json:"description_kind,omitempty"`
	Deprecated      bool            `json:"deprecated,omitempty"`
	// DeprecationMessage is OpenTofu 1.12's: what to use instead.
	DeprecationMessage string `json:"deprecation_message,omitempty"`
	Required           bool   `json:"required,omitempty"`
	Optional           bool   `json:"optional,omitempty"`
	Computed           bool   `json:"computed,omitempty"`
	Sensitive          bool   `json:"sensitive,omitempty"`
	WriteOnly          bool   `json:"write_only,omitempty"`
}

// NestedType is an attribute's nested object type.
type NestedType struct {
	Attributes  map[string]*Attribute `json:"attributes,omitempty"`
	NestingMode string                `json:"nesting_mode,omitempty"`
}

// NewProviderSchema describes the schemas and functions of provider p.
func NewProviderSchema(p addrs.Provider, s *provider.Schemas, fns map[string]provider.FunctionSpec) *ProviderSchema {
	out := &ProviderSchema{Provider: marshalSchema(s.Provider)}
	// Terraform's built-in provider has no configuration schema at all,
	// where rig's has an empty one.
	if p.IsBuiltIn() && len(s.Provider.Block.Attributes)+len(s.Provider.Block.BlockTypes) == 0 {
		out.Provider.Block = nil
	}
	out.ResourceSchemas = marshalSchemas(s.ResourceTypes)
	out.DataSourceSchemas = marshalSchemas(s.DataSources)
	out.EphemeralResourceSchemas = marshalSchemas(s.EphemeralResources)
	out.ListResourceSchemas = marshalSchemas(s.ListResources)
	if len(s.Actions) > 0 {
		out.ActionSchemas = map[string]*ActionSchema{}
		for name, as := range s.Actions {
			out.ActionSchemas[name] = &ActionSchema{Block: marshalSchema(as).Block}
		}
	}
	if len(fns) > 0 {
		out.Functions = map[string]*Function{}
		for name, f := range fns {
			out.Functions[name] = newProviderFunction(f)
		}
	}
	return out
}

// marshalSchemas converts schemas by type name; nil when there are none.
func marshalSchemas(schemas map[string]provider.Schema) map[string]*Schema {
	if len(schemas) == 0 {
		return nil
	}
	out := make(map[string]*Schema, len(schemas))
	for name, s := range schemas {
		out[name] = marshalSchema(s)
	}
	return out
}

func marshalSchema(s provider.Schema) *Schema {
	if s.Block == nil {
		return &Schema{}
	}
	return &Schema{Version: s.Version, Block: marshalBlock(s.Block)}
}

// marshalBlock converts a block; b may be the Block of a NestedBlock.
func marshalBlock(b *provider.Block) *Block {
	out := &Block{Description: b.Description, DescriptionKind: stringKindName(b.DescriptionKind), Deprecated: b.Deprecated, DeprecationMessage: b.DeprecationMessage}
	if len(b.Attributes) > 0 {
		out.Attributes = map[string]*Attribute{}
		for name, a := range b.Attributes {
			out.Attributes[name] = marshalAttribute(a)
		}
	}
	if len(b.BlockTypes) > 0 {
		out.BlockTypes = map[string]*BlockType{}
		for name, nb := range b.BlockTypes {
			out.BlockTypes[name] = &BlockType{
				NestingMode: nestingModeName(nb.Nesting),
				Block:       marshalBlock(&nb.Block),
				MinItems:    uint64(nb.MinItems),
				MaxItems:    uint64(nb.MaxItems),
			}
		}
	}
	return out
}

func marshalAttribute(a *provider.Attribute) *Attribute {
	out := &Attribute{
		Description:        a.Description,
		DescriptionKind:    stringKindName(a.DescriptionKind),
		Deprecated:         a.Deprecated,
		DeprecationMessage: a.DeprecationMessage,
		Required:           a.Required,
		Optional:           a.Optional,
		Computed:           a.Computed,
		Sensitive:          a.Sensitive,
		WriteOnly:          a.WriteOnly,
	}
	if a.NestedType != nil {
		nt := &NestedType{NestingMode: nestingModeName(a.NestedType.Nesting), Attributes: map[string]*Attribute{}}
		for name, inner := range a.NestedType.Attributes {
			nt.Attributes[name] = marshalAttribute(inner)
		}
		out.NestedType = nt
	} else {
		out.Type = marshalType(a.Type)
	}
	return out
}

func stringKindName(k provider.StringKind) string {
	switch k {
	case provider.StringMarkdown:
		return "markdown"
	case provider.StringPlain:
		return "plain"
	}
	return "plain"
}

func nestingModeName(n provider.NestingMode) string {
	switch n {
	case provider.NestingSingle:
		return "single"
	case provider.NestingGroup:
		return "group"
	case provider.NestingList:
		return "list"
	case provider.NestingSet:
		return "set"
	case provider.NestingMap:
		return "map"
	case provider.NestingInvalid:
	}
	return ""
}
