package builtin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/rig-iac/rig/internal/ctyjson"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// DataResourceType is the name of the built-in managed resource type.
const DataResourceType = "terraform_data"

// Terraform is the built-in "terraform" provider. It needs no configuration
// and is safe for concurrent use.
type Terraform struct {
	// NewID generates the id of a new terraform_data object; nil means a random UUID.
	NewID func() string
	// ReadRemoteState reads the states terraform_remote_state data sources
	// name; nil makes every read of one fail.
	ReadRemoteState RemoteStateReader
}

var _ provider.Interface = (*Terraform)(nil)

// NewTerraform returns the built-in provider.
func NewTerraform() *Terraform { return &Terraform{} }

// dataBlock is terraform_data's schema, built once and never changed. Its
// store block is Terraform 1.16's (datastore.go).
var dataBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"id":               {Type: cty.String, Computed: true},
	"input":            {Type: cty.DynamicPseudoType, Optional: true},
	"output":           {Type: cty.DynamicPseudoType, Computed: true},
	"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
}, BlockTypes: map[string]*provider.NestedBlock{"store": {Nesting: provider.NestingSingle, Block: storeBlock}}}

// DataSchema is the schema of terraform_data. Its Block is shared and must
// not be modified.
func DataSchema() provider.Schema {
	return provider.Schema{Block: dataBlock}
}

// GetProviderSchema reports an empty provider configuration, terraform_data
// and terraform_remote_state.
func (p *Terraform) GetProviderSchema(context.Context) (*provider.Schemas, diag.Diagnostics) {
	return &provider.Schemas{
		Provider:      provider.Schema{Block: &provider.Block{}},
		ResourceTypes: map[string]provider.Schema{DataResourceType: DataSchema()},
		DataSources:   map[string]provider.Schema{RemoteStateType: RemoteStateSchema()},
	}, nil
}

// ValidateProviderConfig accepts the empty configuration.
func (p *Terraform) ValidateProviderConfig(context.Context, cty.Value) diag.Diagnostics { return nil }

// ValidateResourceConfig rejects settings of the read-only attributes.
func (p *Terraform) ValidateResourceConfig(_ context.Context, typeName string, config cty.Value) diag.Diagnostics {
	if typeName != DataResourceType {
		return unsupported("resource", typeName)
	}
	var ds diag.Diagnostics
	if config.IsNull() || !config.IsKnown() {
		return nil
	}
	for _, attr := range []string{"id", "output"} {
		if !config.GetAttr(attr).IsNull() {
			ds = ds.Append(diag.Errorf("Invalid resource configuration", "The %q attribute of terraform_data is read-only.", attr))
		}
	}
	return ds
}

// ValidateDataResourceConfig checks a terraform_remote_state configuration
// and rejects every other data source.
func (p *Terraform) ValidateDataResourceConfig(_ context.Context, typeName string, config cty.Value) diag.Diagnostics {
	if typeName != RemoteStateType {
		return unsupported("data source", typeName)
	}
	return validateRemoteState(config)
}

// ConfigureProvider does nothing: the provider has no settings.
func (p *Terraform) ConfigureProvider(context.Context, provider.ConfigureRequest) diag.Diagnostics {
	return nil
}

// UpgradeResourceState decodes the stored object; terraform_data has only
// schema version 0. An object without a store attribute (as OpenTofu and
// rig write one without a store block) has a null store.
func (p *Terraform) UpgradeResourceState(_ context.Context, req provider.UpgradeRequest) provider.UpgradeResponse {
	if req.TypeName != DataResourceType {
		return provider.UpgradeResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, DataSchema().Block.ImpliedType())
	if err != nil {
		return provider.UpgradeResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Invalid stored object", "Decoding terraform_data state: %s.", err)}}
	}
	return provider.UpgradeResponse{UpgradedState: v}
}

// ReadResource returns the prior object unchanged: there is nothing remote to read.
func (p *Terraform) ReadResource(_ context.Context, req provider.ReadRequest) provider.ReadResponse {
	return provider.ReadResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange plans terraform_data: a create leaves id and output
// unknown; a change of triggers_replace forces replacement; a change of input
// leaves output unknown until apply.
func (p *Terraform) PlanResourceChange(_ context.Context, req provider.PlanRequest) provider.PlanResponse {
	if req.ProposedNewState.IsNull() {
		return provider.PlanResponse{PlannedState: req.ProposedNewState, Checked: true}
	}
	planned := attrMap(req.ProposedNewState)
	input := req.ProposedNewState.GetAttr("input")
	triggers := req.ProposedNewState.GetAttr("triggers_replace")
	resp := provider.PlanResponse{Checked: true}
	newOutput := func() cty.Value {
		if input.IsNull() {
			return input
		}
		return cty.UnknownVal(input.Type())
	}
	prior := req.PriorState
	switch {
	case prior.IsNull():
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = newOutput()
	case !prior.GetAttr("triggers_replace").RawEquals(triggers):
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = newOutput()
		// The replacement keeps its store as a new object does.
		prior = cty.NullVal(prior.Type())
	case !prior.GetAttr("input").RawEquals(input):
		planned["output"] = cty.UnknownVal(input.Type())
	}
	store, replace, ds := planStore(prior, req.ProposedNewState, req.Config)
	if ds.HasErrors() {
		return provider.PlanResponse{Diagnostics: ds}
	}
	planned["store"] = store
	if replace {
		// As Terraform 1.16: the write-only input forces replacement.
		resp.RequiresReplace = append(resp.RequiresReplace, cty.GetAttrPath("store").GetAttr("input"))
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
	}
	resp.PlannedState = cty.ObjectVal(planned)
	return resp
}

// ApplyResourceChange fills in the unknown id and output.
func (p *Terraform) ApplyResourceChange(_ context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	if req.PlannedState.IsNull() {
		return provider.ApplyResponse{NewState: req.PlannedState, Checked: true}
	}
	obj := attrMap(req.PlannedState)
	if !obj["output"].IsKnown() {
		obj["output"] = obj["input"]
	}
	obj["store"] = applyStore(obj["store"], req.Config)
	if !obj["id"].IsKnown() {
		id := ""
		if p.NewID != nil {
			id = p.NewID()
		} else {
			id = randomUUID()
		}
		obj["id"] = cty.StringVal(id)
	}
	return provider.ApplyResponse{NewState: cty.ObjectVal(obj), Private: req.PlannedPrivate, Checked: true}
}

// ImportResourceState imports an object with only its id set.
func (p *Terraform) ImportResourceState(_ context.Context, req provider.ImportRequest) provider.ImportResponse {
	if req.TypeName != DataResourceType {
		return provider.ImportResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	v := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.StringVal(req.ID),
		"input":            cty.NullVal(cty.DynamicPseudoType),
		"output":           cty.NullVal(cty.DynamicPseudoType),
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		"store":            cty.NullVal(storeBlock.ImpliedType()),
	})
	return provider.ImportResponse{Imported: []provider.ImportedObject{{TypeName: req.TypeName, State: v}}}
}

// ReadDataSource reads a terraform_remote_state data source.
func (p *Terraform) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	if req.TypeName != RemoteStateType {
		return provider.ReadDataResponse{Diagnostics: unsupported("data source", req.TypeName)}
	}
	return p.readRemoteState(ctx, req.Config)
}

// GetFunctions returns encode_tfvars, decode_tfvars and encode_expr.
func (p *Terraform) GetFunctions(context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics) {
	return functionSpecs, nil
}

// CallFunction calls one of the provider's functions. Its failures are
// *provider.FunctionError values.
func (p *Terraform) CallFunction(_ context.Context, name string, args []cty.Value) (cty.Value, error) {
	impl, ok := functionImpls[name]
	if !ok {
		return cty.NilVal, fmt.Errorf("call provider function %s: the built-in provider has no such function", name)
	}
	if len(args) != 1 {
		return cty.NilVal, fmt.Errorf("call provider function %s: %d arguments given, 1 expected", name, len(args))
	}
	// The engine passes only known arguments of the parameter's type.
	if !args[0].IsWhollyKnown() {
		return cty.NilVal, &provider.FunctionError{Text: "input is not known", Argument: new(int64)}
	}
	if functionSpecs[name].Parameters[0].Type.Equals(cty.String) && (args[0].IsNull() || !args[0].Type().Equals(cty.String)) {
		return cty.NilVal, &provider.FunctionError{Text: "a string is required", Argument: new(int64)}
	}
	v, err := impl(args[0])
	if err != nil {
		return cty.NilVal, &provider.FunctionError{Text: err.Error()}
	}
	return v, nil
}

// Stop does nothing: operations are instantaneous.
func (p *Terraform) Stop(context.Context) error { return nil }

// Close does nothing.
func (p *Terraform) Close() error { return nil }

func unsupported(kind, typeName string) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Unsupported "+kind+" type", "The built-in provider terraform.io/builtin/terraform has no %s type %q.", kind, typeName)}
}

// randomUUID returns 16 random bytes formatted as 8-4-4-4-12 hex digits.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails: crypto/rand aborts the program instead
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// MoveResourceState reports that the built-in provider takes no objects
// of other resource types.
func (p *Terraform) MoveResourceState(_ context.Context, req provider.MoveRequest) provider.MoveResponse {
	return provider.MoveResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Unsupported `moved` across resource types",
		"The provider %q does not support moved operations across resource types and providers.", "terraform.io/builtin/terraform")}}
}

// ValidateListResourceConfig reports that the built-in provider has no
// list resource types.
func (p *Terraform) ValidateListResourceConfig(_ context.Context, typeName string, _ cty.Value) diag.Diagnostics {
	return p.ListResource(context.Background(), provider.ListRequest{TypeName: typeName}, nil)
}

// ListResource reports that the built-in provider has no list resource
// types.
func (p *Terraform) ListResource(_ context.Context, req provider.ListRequest, _ func(provider.ListedObject)) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Invalid list resource type", "The provider terraform.io/builtin/terraform does not support list resource type %q.", req.TypeName)}
}
