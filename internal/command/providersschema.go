package command

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// runProvidersSchema prints the schemas of the providers the configuration
// and the state use, in the JSON provider schema format that
// `terraform providers schema -json` prints.
func runProvidersSchema(m *Meta, args []string) int {
	fs := m.flagSet("providers schema")
	var asJSON bool
	fs.BoolVar(&asJSON, "json", false, "Print the schemas as JSON. Required: there is no other format.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if !asJSON {
		// As Terraform words it, followed by the usage.
		fmt.Fprintf(m.Err, "The `rig providers schema` command requires the `-json` flag.\n\nUsage: rig [global options] providers schema -json\n\n")
		writeParagraphs(m.Err, "Prints out a json representation of the schemas for all providers used in the current configuration.", 2)
		return 1
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The providers schema command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	ds = ds.Append(m.checkProviders(cfg))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	used := treeRequiredProviders(cfg)
	s, more := m.currentState()
	ds = ds.Append(more)
	if s != nil {
		for _, r := range s.Resources {
			used = append(used, r.ProviderConfig.Provider)
		}
	}
	slices.SortFunc(used, addrs.Provider.Compare)
	used = slices.Compact(used)

	ctx := context.Background()
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	out := jsonProviders{FormatVersion: "1.0", Schemas: map[string]*jsonProvider{}}
	for _, p := range used {
		schemas, more := set.Schemas(ctx, p)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		fns, more := set.Functions(ctx, p)
		ds = ds.Append(more)
		out.Schemas[p.String()] = marshalProviderSchemas(p, schemas, fns)
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	b, err := json.Marshal(out)
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to marshal provider schemas to json", "%s", err)))
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	m.showDiagnostics(ds)
	return 0
}

// The JSON provider schema format, as Terraform's jsonprovider package
// defines it: field order and omitempty as there.
type jsonProviders struct {
	FormatVersion string                   `json:"format_version"`
	Schemas       map[string]*jsonProvider `json:"provider_schemas,omitempty"`
}

type jsonProvider struct {
	Provider          *jsonSchema                  `json:"provider,omitempty"`
	ResourceSchemas   map[string]*jsonSchema       `json:"resource_schemas,omitempty"`
	DataSourceSchemas map[string]*jsonSchema       `json:"data_source_schemas,omitempty"`
	Functions         map[string]*jsonFunctionSpec `json:"functions,omitempty"`
}

type jsonSchema struct {
	Version int64      `json:"version"`
	Block   *jsonBlock `json:"block,omitempty"`
}

type jsonBlock struct {
	Attributes      map[string]*jsonAttribute `json:"attributes,omitempty"`
	BlockTypes      map[string]*jsonBlockType `json:"block_types,omitempty"`
	Description     string                    `json:"description,omitempty"`
	DescriptionKind string                    `json:"description_kind,omitempty"`
	Deprecated      bool                      `json:"deprecated,omitempty"`
}

type jsonBlockType struct {
	NestingMode string     `json:"nesting_mode,omitempty"`
	Block       *jsonBlock `json:"block,omitempty"`
	MinItems    uint64     `json:"min_items,omitempty"`
	MaxItems    uint64     `json:"max_items,omitempty"`
}

type jsonAttribute struct {
	Type            json.RawMessage `json:"type,omitempty"`
	NestedType      *jsonNestedType `json:"nested_type,omitempty"`
	Description     string          `json:"description,omitempty"`
	DescriptionKind string          `json:"description_kind,omitempty"`
	Deprecated      bool            `json:"deprecated,omitempty"`
	Required        bool            `json:"required,omitempty"`
	Optional        bool            `json:"optional,omitempty"`
	Computed        bool            `json:"computed,omitempty"`
	Sensitive       bool            `json:"sensitive,omitempty"`
}

type jsonNestedType struct {
	Attributes  map[string]*jsonAttribute `json:"attributes,omitempty"`
	NestingMode string                    `json:"nesting_mode,omitempty"`
}

type jsonFunctionSpec struct {
	Description        string               `json:"description,omitempty"`
	Summary            string               `json:"summary,omitempty"`
	DeprecationMessage string               `json:"deprecation_message,omitempty"`
	ReturnType         json.RawMessage      `json:"return_type"`
	Parameters         []*jsonFunctionParam `json:"parameters,omitempty"`
	VariadicParameter  *jsonFunctionParam   `json:"variadic_parameter,omitempty"`
}

type jsonFunctionParam struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	IsNullable  bool            `json:"is_nullable,omitempty"`
	Type        json.RawMessage `json:"type"`
}

// marshalProviderSchemas converts the schemas and functions of p.
func marshalProviderSchemas(p addrs.Provider, s *provider.Schemas, fns map[string]provider.FunctionSpec) *jsonProvider {
	out := &jsonProvider{Provider: marshalSchema(s.Provider)}
	// Terraform's built-in provider has no configuration schema at all,
	// where rig's has an empty one.
	if p.IsBuiltIn() && len(s.Provider.Block.Attributes)+len(s.Provider.Block.BlockTypes) == 0 {
		out.Provider.Block = nil
	}
	if len(s.ResourceTypes) > 0 {
		out.ResourceSchemas = map[string]*jsonSchema{}
		for name, rs := range s.ResourceTypes {
			out.ResourceSchemas[name] = marshalSchema(rs)
		}
	}
	if len(s.DataSources) > 0 {
		out.DataSourceSchemas = map[string]*jsonSchema{}
		for name, ds := range s.DataSources {
			out.DataSourceSchemas[name] = marshalSchema(ds)
		}
	}
	if len(fns) > 0 {
		out.Functions = map[string]*jsonFunctionSpec{}
		for name, f := range fns {
			out.Functions[name] = marshalFunctionSpec(f)
		}
	}
	return out
}

func marshalSchema(s provider.Schema) *jsonSchema {
	if s.Block == nil {
		return &jsonSchema{}
	}
	return &jsonSchema{Version: s.Version, Block: marshalBlock(s.Block)}
}

// marshalBlock converts a block; b may be the Block of a NestedBlock.
func marshalBlock(b *provider.Block) *jsonBlock {
	out := &jsonBlock{Description: b.Description, DescriptionKind: stringKindName(b.DescriptionKind), Deprecated: b.Deprecated}
	if len(b.Attributes) > 0 {
		out.Attributes = map[string]*jsonAttribute{}
		for name, a := range b.Attributes {
			out.Attributes[name] = marshalAttribute(a)
		}
	}
	if len(b.BlockTypes) > 0 {
		out.BlockTypes = map[string]*jsonBlockType{}
		for name, nb := range b.BlockTypes {
			out.BlockTypes[name] = &jsonBlockType{
				NestingMode: nestingModeName(nb.Nesting),
				Block:       marshalBlock(&nb.Block),
				MinItems:    uint64(nb.MinItems),
				MaxItems:    uint64(nb.MaxItems),
			}
		}
	}
	return out
}

func marshalAttribute(a *provider.Attribute) *jsonAttribute {
	out := &jsonAttribute{
		Description:     a.Description,
		DescriptionKind: stringKindName(a.DescriptionKind),
		Deprecated:      a.Deprecated,
		Required:        a.Required,
		Optional:        a.Optional,
		Computed:        a.Computed,
		Sensitive:       a.Sensitive,
	}
	if a.NestedType != nil {
		nt := &jsonNestedType{NestingMode: nestingModeName(a.NestedType.Nesting), Attributes: map[string]*jsonAttribute{}}
		for name, inner := range a.NestedType.Attributes {
			nt.Attributes[name] = marshalAttribute(inner)
		}
		out.NestedType = nt
	} else {
		out.Type = marshalType(a.Type)
	}
	return out
}

func marshalFunctionSpec(f provider.FunctionSpec) *jsonFunctionSpec {
	out := &jsonFunctionSpec{Description: f.Description, Summary: f.Summary, DeprecationMessage: f.DeprecationMessage, ReturnType: marshalType(f.ReturnType)}
	param := func(p provider.FunctionParameter) *jsonFunctionParam {
		return &jsonFunctionParam{Name: p.Name, Description: p.Description, IsNullable: p.AllowNullValue, Type: marshalType(p.Type)}
	}
	for _, p := range f.Parameters {
		out.Parameters = append(out.Parameters, param(p))
	}
	if f.VariadicParameter != nil {
		out.VariadicParameter = param(*f.VariadicParameter)
	}
	return out
}

// marshalType is a type in cty's JSON type syntax ("string",
// ["list","number"]); a type cty cannot write (none in a valid schema) is
// "dynamic".
func marshalType(ty cty.Type) json.RawMessage {
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	b, err := ty.MarshalJSON()
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
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
