package builtin

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// RemoteStateType is the name of the built-in data source that reads the
// root outputs of another configuration's state.
const RemoteStateType = "terraform_remote_state"

// RemoteStateRequest says which state a terraform_remote_state data source
// reads: the backend type, its configuration (an object or map of known
// values, or null) and the workspace.
type RemoteStateRequest struct {
	Backend   string
	Config    cty.Value
	Workspace string
	// Addr is the data source instance reading it, when the caller said
	// (provider.WithResourceInstance); it selects the state's encryption.
	Addr addrs.AbsResourceInstance
}

// RemoteStateReader reads the root output values of the latest state
// snapshot req names. It returns nil outputs and no errors when the
// workspace has no state; the values of sensitive outputs carry the
// caller's sensitive mark. The caller owns the returned map.
type RemoteStateReader func(ctx context.Context, req RemoteStateRequest) (map[string]cty.Value, diag.Diagnostics)

// remoteStateBlock is terraform_remote_state's schema, built once and never changed.
var remoteStateBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"backend":   {Type: cty.String, Required: true},
	"config":    {Type: cty.DynamicPseudoType, Optional: true},
	"defaults":  {Type: cty.DynamicPseudoType, Optional: true},
	"outputs":   {Type: cty.DynamicPseudoType, Computed: true},
	"workspace": {Type: cty.String, Optional: true},
}}

// RemoteStateSchema is the schema of terraform_remote_state. Its Block is
// shared and must not be modified.
func RemoteStateSchema() provider.Schema {
	return provider.Schema{Block: remoteStateBlock}
}

// validateRemoteState checks the shapes of config and defaults: each must
// be an object or a map when it is set.
func validateRemoteState(config cty.Value) diag.Diagnostics {
	config, _ = config.UnmarkDeep()
	if config.IsNull() || !config.IsKnown() {
		return nil
	}
	var ds diag.Diagnostics
	for _, attr := range []string{"config", "defaults"} {
		if v := config.GetAttr(attr); !v.IsNull() && !isObjectOrMap(v.Type()) {
			ds = ds.Append(diag.Errorf("Invalid "+attr+" argument", "The %q argument of terraform_remote_state must be an object.", attr))
		}
	}
	return ds
}

func isObjectOrMap(ty cty.Type) bool {
	return ty == cty.DynamicPseudoType || ty.IsObjectType() || ty.IsMapType()
}

// readRemoteState reads the outputs of the state the configuration names,
// over its defaults: an output with the name of a default replaces it.
func (p *Terraform) readRemoteState(ctx context.Context, config cty.Value) provider.ReadDataResponse {
	ds := validateRemoteState(config)
	if ds.HasErrors() {
		return provider.ReadDataResponse{Diagnostics: ds}
	}
	if p.ReadRemoteState == nil {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Remote state not available", "This build of the built-in terraform provider cannot read remote states.")}}
	}
	// The reader gets plain values; the object read keeps the marks of
	// the configuration.
	plain, _ := config.UnmarkDeep()
	workspace := "default"
	if w := plain.GetAttr("workspace"); !w.IsNull() {
		workspace = w.AsString()
	}
	addr, _ := provider.ResourceInstanceOf(ctx)
	outputs, more := p.ReadRemoteState(ctx, RemoteStateRequest{
		Backend:   plain.GetAttr("backend").AsString(),
		Config:    plain.GetAttr("config"),
		Workspace: workspace,
		Addr:      addr,
	})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return provider.ReadDataResponse{Diagnostics: ds}
	}
	if outputs == nil {
		return provider.ReadDataResponse{Diagnostics: ds.Append(diag.Errorf("Unable to find remote state",
			"No stored state was found for the given workspace in the given backend."))}
	}
	merged := map[string]cty.Value{}
	if defaults, marks := config.GetAttr("defaults").Unmark(); !defaults.IsNull() {
		for it := defaults.ElementIterator(); it.Next(); {
			k, v := it.Element()
			merged[k.AsString()] = v.WithMarks(marks)
		}
	}
	for name, v := range outputs {
		merged[name] = v
	}
	// The state records the workspace as configured (null when the
	// default one was read), as OpenTofu and Terraform record it.
	obj := config.AsValueMap()
	obj["outputs"] = cty.ObjectVal(merged)
	return provider.ReadDataResponse{State: cty.ObjectVal(obj), Diagnostics: ds}
}
