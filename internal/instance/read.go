package instance

import (
	"context"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// ReadRequest is what ReadData needs of one data source instance whose
// configuration is known.
type ReadRequest struct {
	Addr     addrs.AbsResourceInstance
	Resource *config.Resource
	Schema   provider.Schema
	Provider provider.Interface
	// Config is the instance's configuration (EvalConfig); Meta its
	// provider_meta.
	Config Config
	Meta   cty.Value
	// Hooks, when not nil, observe the read.
	Hooks plan.DataReadHooks
}

// DataRead is the result of ReadData.
type DataRead struct {
	// Value is the object read, with the configuration's and the schema's
	// sensitive marks; cty.NilVal when the read failed.
	Value cty.Value
	// CheckFailed says the read of a check block's scoped data source
	// failed: its check is reported failed, and the read's problems are
	// warnings.
	CheckFailed bool
}

// ReadData has the provider read a data source instance (ReadDataSource)
// and puts the configuration's sensitive marks, and the schema's, on what
// it returns. The provider sees the configuration with its marks: plugins
// drop them, the built-in terraform_remote_state keeps those of its
// defaults. The diagnostics name the instance and the attributes of its
// body; those of a check block's scoped data source are warnings, since
// such a read never fails a plan or an apply.
func ReadData(ctx context.Context, req ReadRequest) (DataRead, diag.Diagnostics) {
	r, sch, addr, cfg := req.Resource, req.Schema, req.Addr, req.Config
	if req.Hooks != nil {
		req.Hooks.PreRead(addr)
	}
	start := time.Now()
	resp := req.Provider.ReadDataSource(provider.WithResourceInstance(ctx, addr), provider.ReadDataRequest{TypeName: r.Addr.Type, Config: cfg.Marked, ProviderMeta: req.Meta})
	failed := resp.Diagnostics.HasErrors()
	read := resp.State
	if read != cty.NilVal && !read.IsNull() {
		read = sch.Block.MarkSensitive(read.MarkWithPaths(cfg.Marks))
	}
	if req.Hooks != nil {
		req.Hooks.PostRead(addr, read, time.Since(start), failed)
	}
	ds := provider.Redacted(resp.Diagnostics, cfg.Marked).InBody(r.Config).WithAddress(addrs.ObjectAddr{Instance: addr})
	switch {
	case failed && r.Check != "":
		for i := range ds {
			ds[i].Severity = diag.Warning
		}
		return DataRead{CheckFailed: true}, ds
	case failed:
		return DataRead{}, ds
	}
	return DataRead{Value: read}, ds
}
