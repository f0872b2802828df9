package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/rig-iac/rig/bench/slowcloud/cloud"
)

// RPCs are the calls a Provider counts, by their protocol 6 names.
var RPCs = []string{
	"GetMetadata", "GetProviderSchema", "ValidateProviderConfig", "ConfigureProvider", "StopProvider",
	"ValidateResourceConfig", "UpgradeResourceState", "ReadResource", "PlanResourceChange",
	"ApplyResourceChange", "ImportResourceState", "MoveResourceState",
	"ValidateDataResourceConfig", "ReadDataSource",
}

// Provider serves slowcloud's provider protocol. Its zero value is not
// usable; call New.
type Provider struct {
	calls    map[string]*atomic.Int64 // RPC → calls; the keys are RPCs, fixed
	failures map[string]*atomic.Int64 // RPC → throttling errors given up on

	mu     sync.Mutex // guards client
	client *cloud.Client
}

// New returns a provider not configured yet.
func New() *Provider {
	p := &Provider{calls: map[string]*atomic.Int64{}, failures: map[string]*atomic.Int64{}}
	for _, rpc := range RPCs {
		p.calls[rpc], p.failures[rpc] = new(atomic.Int64), new(atomic.Int64)
	}
	return p
}

// Report returns what the provider counted.
func (p *Provider) Report() cloud.ProviderReport {
	r := cloud.ProviderReport{Processes: 1, RPCs: map[string]int64{}, Failures: map[string]int64{}}
	for rpc, n := range p.calls {
		if v := n.Load(); v > 0 {
			r.RPCs[rpc] = v
		}
		if v := p.failures[rpc].Load(); v > 0 {
			r.Failures[rpc] = v
		}
	}
	if c := p.Client(); c != nil {
		r.Retries = c.Retries()
	}
	return r
}

// Client returns the configured client, nil before ConfigureProvider.
func (p *Provider) Client() *cloud.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.client
}

func (p *Provider) count(rpc string) { p.calls[rpc].Add(1) }

// apiDiag is the diagnostic of a failed API call made for rpc on the object
// at what; a throttling error given up on is counted.
func (p *Provider) apiDiag(rpc, what string, err error) []*tfprotov6.Diagnostic {
	if cloud.IsThrottling(err) {
		p.failures[rpc].Add(1)
	}
	return errorDiag(fmt.Sprintf("%s %s", rpc, what), err)
}

var errNotConfigured = errors.New("the provider has not been configured")

func (p *Provider) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	p.count("GetMetadata")
	return &tfprotov6.GetMetadataResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Resources:          []tfprotov6.ResourceMetadata{{TypeName: TypeName}},
		DataSources:        []tfprotov6.DataSourceMetadata{{TypeName: TypeName}},
	}, nil
}

func (p *Provider) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	p.count("GetProviderSchema")
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Provider:           providerSchema,
		ResourceSchemas:    map[string]*tfprotov6.Schema{TypeName: resourceSchema},
		DataSourceSchemas:  map[string]*tfprotov6.Schema{TypeName: dataSourceSchema},
	}, nil
}

func (p *Provider) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (p *Provider) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	p.count("ValidateProviderConfig")
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

// ConfigureProvider sets the endpoint (the configuration's, else
// SLOWCLOUD_ENDPOINT) and retries, and asks the cloud for the drift
// SLOWCLOUD_DRIFT describes, if any (once per cloud for each value).
func (p *Provider) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	p.count("ConfigureProvider")
	_, m, err := decode(req.Config, configType)
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: errorDiag("Invalid provider configuration", err)}, nil
	}
	endpoint, ok := str(m["endpoint"])
	if !ok {
		endpoint = os.Getenv("SLOWCLOUD_ENDPOINT")
	}
	if endpoint == "" {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: errorDiag("No slowcloud endpoint",
			errors.New("set endpoint in the provider block or SLOWCLOUD_ENDPOINT to the URL of a running slowcloud"))}, nil
	}
	c := cloud.NewClient(endpoint)
	if n, ok := num(m["max_retries"]); ok {
		c.MaxRetries = int(n)
	}
	if text := os.Getenv("SLOWCLOUD_DRIFT"); text != "" {
		d, err := cloud.ParseDrift(text)
		if err == nil {
			_, err = c.Drift(ctx, d)
		}
		if err != nil {
			return &tfprotov6.ConfigureProviderResponse{Diagnostics: errorDiag("SLOWCLOUD_DRIFT", err)}, nil
		}
	}
	p.mu.Lock()
	p.client = c
	p.mu.Unlock()
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (p *Provider) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	p.count("StopProvider")
	return &tfprotov6.StopProviderResponse{}, nil
}

func (p *Provider) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	p.count("ValidateResourceConfig")
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (p *Provider) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	p.count("UpgradeResourceState")
	v, err := req.RawState.UnmarshalWithOpts(objectType, tfprotov6.UnmarshalOpts{
		ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorDiag("Reading the recorded object", err)}, nil
	}
	dv, err := encode(v)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv}, nil
}

// ReadResource reads the object back from the cloud; one that is gone is
// null.
func (p *Provider) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	p.count("ReadResource")
	c := p.Client()
	if c == nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errorDiag("ReadResource", errNotConfigured)}, nil
	}
	_, m, err := decode(req.CurrentState, objectType)
	if err != nil {
		return nil, err
	}
	id, _ := str(m["id"])
	o, err := c.Get(ctx, id)
	var state tftypes.Value
	switch {
	case cloud.IsNotFound(err):
		state = tftypes.NewValue(objectType, nil)
	case err != nil:
		return &tfprotov6.ReadResourceResponse{Diagnostics: p.apiDiag("ReadResource", id, err)}, nil
	default:
		state = stateOf(o)
	}
	dv, err := encode(state)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadResourceResponse{NewState: dv, Private: req.Private}, nil
}

// PlanResourceChange plans without calling the cloud: the ID is known once
// created, the revision changes with any change, and a new name replaces
// the object.
func (p *Provider) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	p.count("PlanResourceChange")
	proposed, pm, err := decode(req.ProposedNewState, objectType)
	if err != nil {
		return nil, err
	}
	if proposed.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate}, nil
	}
	_, prior, err := decode(req.PriorState, objectType)
	if err != nil {
		return nil, err
	}
	planned := map[string]tftypes.Value{}
	for k, v := range pm {
		planned[k] = v
	}
	unknownID, unknownRev := tftypes.NewValue(tftypes.String, tftypes.UnknownValue), tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	var replace []*tftypes.AttributePath
	switch {
	case prior == nil:
		planned["id"], planned["revision"] = unknownID, unknownRev
	case !prior["name"].Equal(pm["name"]):
		replace = append(replace, tftypes.NewAttributePath().WithAttributeName("name"))
		planned["id"], planned["revision"] = unknownID, unknownRev
	default:
		planned["id"] = prior["id"]
		if prior["value"].Equal(pm["value"]) && prior["tags"].Equal(pm["tags"]) {
			planned["revision"] = prior["revision"]
		} else {
			planned["revision"] = unknownRev
		}
	}
	dv, err := encode(tftypes.NewValue(objectType, planned))
	if err != nil {
		return nil, err
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: dv, RequiresReplace: replace, PlannedPrivate: req.PriorPrivate}, nil
}

// ApplyResourceChange creates, updates or deletes the object in the cloud.
func (p *Provider) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	p.count("ApplyResourceChange")
	c := p.Client()
	if c == nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errorDiag("ApplyResourceChange", errNotConfigured)}, nil
	}
	planned, pm, err := decode(req.PlannedState, objectType)
	if err != nil {
		return nil, err
	}
	_, prior, err := decode(req.PriorState, objectType)
	if err != nil {
		return nil, err
	}
	var o cloud.Object
	switch {
	case planned.IsNull():
		id, _ := str(prior["id"])
		if err := c.Delete(ctx, id); err != nil && !cloud.IsNotFound(err) {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: p.apiDiag("ApplyResourceChange", "deleting "+id, err)}, nil
		}
		dv, err := encode(planned)
		if err != nil {
			return nil, err
		}
		return &tfprotov6.ApplyResourceChangeResponse{NewState: dv}, nil
	case prior == nil:
		o, err = c.Create(ctx, object(pm))
	default:
		o, err = c.Update(ctx, object(pm))
	}
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: p.apiDiag("ApplyResourceChange", object(pm).Name, err)}, nil
	}
	dv, err := encode(stateOf(o))
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: dv, Private: req.PlannedPrivate}, nil
}

// ImportResourceState imports the object with the ID given, as read from
// the cloud.
func (p *Provider) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	p.count("ImportResourceState")
	c := p.Client()
	if c == nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorDiag("ImportResourceState", errNotConfigured)}, nil
	}
	o, err := c.Get(ctx, req.ID)
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: p.apiDiag("ImportResourceState", req.ID, err)}, nil
	}
	dv, err := encode(stateOf(o))
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{{TypeName: TypeName, State: dv}}}, nil
}

func (p *Provider) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	p.count("MoveResourceState")
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: errorDiag("Move not supported", errors.New("slowcloud objects cannot move between resource types"))}, nil
}

func (p *Provider) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: errorDiag("Identity not supported", errors.New("slowcloud objects have no identity"))}, nil
}

func (p *Provider) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: errorDiag("Not supported", errors.New("slowcloud generates no configuration"))}, nil
}

func (p *Provider) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	p.count("ValidateDataResourceConfig")
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

// ReadDataSource reads an object by ID or, without one, by name.
func (p *Provider) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	p.count("ReadDataSource")
	c := p.Client()
	if c == nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorDiag("ReadDataSource", errNotConfigured)}, nil
	}
	_, m, err := decode(req.Config, objectType)
	if err != nil {
		return nil, err
	}
	var o cloud.Object
	what := ""
	if id, ok := str(m["id"]); ok {
		what = id
		o, err = c.Get(ctx, id)
	} else if name, ok := str(m["name"]); ok {
		what = "named " + name
		o, err = c.FindByName(ctx, name)
	} else {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorDiag("Missing id or name", errors.New("the data source slowcloud_object needs id or name"))}, nil
	}
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: p.apiDiag("ReadDataSource", what, err)}, nil
	}
	dv, err := encode(stateOf(o))
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadDataSourceResponse{State: dv}, nil
}

func (p *Provider) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{}, nil
}

func (p *Provider) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: "slowcloud has no functions"}}, nil
}

func (p *Provider) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (p *Provider) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: errorDiag("Not supported", errors.New("slowcloud has no ephemeral resources"))}, nil
}

func (p *Provider) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{}, nil
}

func (p *Provider) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{}, nil
}
