package workdir

import (
	"context"
	"errors"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/zclconf/go-cty/cty"
)

// ReadRemoteState is the built-in provider's reader for
// terraform_remote_state (a builtin.RemoteStateReader): it opens the
// backend the data source describes (as a backend block with the same
// settings would, a local path being relative to the working directory)
// and returns the root outputs of the workspace's latest snapshot,
// sensitive ones marked lang.Sensitive, decrypted as the configuration's
// encryption block says for remote states (read when the state store was
// opened). No state, or an empty file, gives nil outputs.
func (d *Dir) ReadRemoteState(ctx context.Context, req builtin.RemoteStateRequest) (map[string]cty.Value, diag.Diagnostics) {
	spec, ds := remoteStateSpec(req)
	if ds.HasErrors() {
		return nil, ds
	}
	b, more := d.openBackend(ctx, spec)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	store, err := b.Store(ctx, req.Workspace)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Error loading state", "%s", err))
	}
	data, err := store.Read(ctx)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Error loading state", "%s", err))
	}
	if data == nil {
		return nil, ds
	}
	enc := d.encryption
	if plain, err := enc.DecryptRemoteState(remoteStateKey(req.Addr), data); err != nil {
		return nil, ds.Append(diag.Errorf("Error loading state", "Reading %s: %s.", store.Path(), err))
	} else {
		data = plain
	}
	s, err := statefile.Parse(data)
	switch {
	case errors.Is(err, statefile.ErrEmpty):
		return nil, ds
	case err != nil && encryption.IsEncrypted(data):
		return nil, ds.Append(diag.Errorf("Error loading state", "%s is encrypted, and the configuration's encryption block has no remote_state_data_sources target to decrypt it with (a default block, or remote_state_data_source %q).", store.Path(), remoteStateKey(req.Addr)))
	case err != nil:
		return nil, ds.Append(diag.Errorf("Error loading state", "Reading %s: %s.", store.Path(), err))
	}
	outputs := make(map[string]cty.Value, len(s.Outputs))
	for name, o := range s.Outputs {
		v := o.Value
		if o.Sensitive {
			v = v.Mark(lang.Sensitive)
		}
		outputs[name] = v
	}
	return outputs, ds
}

// remoteStateSpec checks a terraform_remote_state's backend type and
// config against the settings of rig's backends.
func remoteStateSpec(req builtin.RemoteStateRequest) (backendSpec, diag.Diagnostics) {
	schema, ok := backendSettings[req.Backend]
	if !ok {
		return backendSpec{}, diag.Diagnostics{diag.Errorf("Invalid backend configuration",
			"There is no backend type named %q: rig's terraform_remote_state supports \"local\", \"pg\", \"http\" and \"s3\".", req.Backend)}
	}
	spec := backendSpec{Type: req.Backend, Settings: map[string]string{}}
	if req.Workspace != backend.DefaultWorkspace {
		if err := backend.ValidateWorkspaceName(req.Workspace); err != nil {
			return spec, diag.Diagnostics{diag.Errorf("Invalid workspace", "%s.", err)}
		}
	}
	if req.Config.IsNull() {
		return spec, nil
	}
	var ds diag.Diagnostics
	for it := req.Config.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if _, known := schema[name]; !known {
			ds = ds.Append(diag.Errorf("Invalid backend configuration", "The %s backend has no setting named %q.", req.Backend, name))
			continue
		}
		if v.IsNull() {
			continue
		}
		s, err := settingString(v, settingType(req.Backend, name))
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid backend configuration", "The %q setting of the %s backend %s.", name, req.Backend, err))
			continue
		}
		spec.Settings[name] = s
	}
	return spec, ds
}

// remoteStateKey is the name remote_state_data_source blocks give a data
// source, as OpenTofu forms it: its address without
// "data.terraform_remote_state." and a leading "module."
// ("net", "app[0].net").
func remoteStateKey(addr addrs.AbsResourceInstance) string {
	key := strings.Replace(addr.String(), "data.terraform_remote_state.", "", 1)
	return strings.TrimPrefix(key, "module.")
}
