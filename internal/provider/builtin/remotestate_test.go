package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func remoteStateConfig(backend string, config, workspace, defaults cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"backend": cty.StringVal(backend), "config": config, "workspace": workspace,
		"defaults": defaults, "outputs": cty.NullVal(cty.DynamicPseudoType),
	})
}

func TestRemoteStateRead(t *testing.T) {
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	path := cty.ObjectVal(map[string]cty.Value{"path": cty.StringVal("a.tfstate")})
	states := map[string]map[string]cty.Value{
		"default": {"x": cty.StringVal("hello"), "n": cty.NumberIntVal(1)},
		"empty":   {},
	}
	var got RemoteStateRequest
	p := &Terraform{ReadRemoteState: func(_ context.Context, req RemoteStateRequest) (map[string]cty.Value, diag.Diagnostics) {
		got = req
		return states[req.Workspace], nil
	}}
	tests := []struct {
		name          string
		config        cty.Value
		wantWorkspace string
		wantOutputs   cty.Value
		wantError     string
	}{
		{"outputs of the default workspace", remoteStateConfig("local", path, cty.NullVal(cty.String), nullDyn), "default",
			cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("hello"), "n": cty.NumberIntVal(1)}), ""},
		{"outputs over defaults", remoteStateConfig("local", path, cty.NullVal(cty.String),
			cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("dflt"), "d": cty.True})), "default",
			cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("hello"), "n": cty.NumberIntVal(1), "d": cty.True}), ""},
		{"an empty state in another workspace", remoteStateConfig("local", nullDyn, cty.StringVal("empty"),
			cty.MapVal(map[string]cty.Value{"d": cty.StringVal("v")})), "empty",
			cty.ObjectVal(map[string]cty.Value{"d": cty.StringVal("v")}), ""},
		{"no state", remoteStateConfig("local", path, cty.StringVal("missing"), nullDyn), "missing", cty.NilVal, "Unable to find remote state"},
		{"config not an object", remoteStateConfig("local", cty.StringVal("x"), cty.NullVal(cty.String), nullDyn), "", cty.NilVal, "Invalid config argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = RemoteStateRequest{}
			resp := p.ReadDataSource(context.Background(), provider.ReadDataRequest{TypeName: RemoteStateType, Config: tt.config})
			if tt.wantError != "" {
				if err := resp.Diagnostics.Err(); err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("error = %v, want one about %q", err, tt.wantError)
				}
				return
			}
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			if got.Backend != "local" || got.Workspace != tt.wantWorkspace || !got.Config.RawEquals(tt.config.GetAttr("config")) {
				t.Errorf("request = %#v, want backend local, workspace %q and the configured config", got, tt.wantWorkspace)
			}
			// Recorded as configured: null for the default workspace.
			if w, want := resp.State.GetAttr("workspace"), tt.config.GetAttr("workspace"); !w.RawEquals(want) {
				t.Errorf("workspace = %#v, want %#v", w, want)
			}
			if out := resp.State.GetAttr("outputs"); !out.RawEquals(tt.wantOutputs) {
				t.Errorf("outputs = %#v, want %#v", out, tt.wantOutputs)
			}
		})
	}
}

func TestRemoteStateWithoutReader(t *testing.T) {
	cfg := remoteStateConfig("local", cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType))
	resp := NewTerraform().ReadDataSource(context.Background(), provider.ReadDataRequest{TypeName: RemoteStateType, Config: cfg})
	if !resp.Diagnostics.HasErrors() {
		t.Fatal("a read without a reader succeeded")
	}
}

func TestRemoteStateMarkedConfig(t *testing.T) {
	const mark = "secret"
	p := &Terraform{ReadRemoteState: func(_ context.Context, req RemoteStateRequest) (map[string]cty.Value, diag.Diagnostics) {
		if req.Config.ContainsMarked() {
			t.Errorf("the reader got marked values: %#v", req.Config)
		}
		return map[string]cty.Value{}, nil
	}}
	cfg := remoteStateConfig("pg",
		cty.ObjectVal(map[string]cty.Value{"conn_str": cty.StringVal("postgres://u:p@h/db").Mark(mark)}),
		cty.StringVal("w").Mark(mark),
		cty.ObjectVal(map[string]cty.Value{"d": cty.StringVal("v")}).Mark(mark))
	resp := p.ReadDataSource(context.Background(), provider.ReadDataRequest{TypeName: RemoteStateType, Config: cfg})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	if !resp.State.GetAttr("outputs").GetAttr("d").HasMark(mark) || !resp.State.GetAttr("config").GetAttr("conn_str").HasMark(mark) {
		t.Errorf("the object read lost the configuration's marks: %#v", resp.State)
	}
}
