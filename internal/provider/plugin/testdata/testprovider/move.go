package main

import (
	"context"
	"encoding/json"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// MoveResourceState takes test_legacy_file objects, a resource type of
// earlier versions of the provider recorded as {name, body} with the
// identity {file_id}, into test_file: a moved block from one to the other
// renames the type without touching the file. A body of
// "unknown-identity" gets an identity with an unknown id, as a provider
// bug would.
func (s *server) MoveResourceState(_ context.Context, req *tfplugin6.MoveResourceState_Request) (*tfplugin6.MoveResourceState_Response, error) {
	fail := func(summary, detail string) (*tfplugin6.MoveResourceState_Response, error) {
		return &tfplugin6.MoveResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag(summary, detail)}}, nil
	}
	if req.SourceTypeName != "test_legacy_file" || req.TargetTypeName != "test_file" {
		return fail("Unsupported move", "test_file takes objects of test_legacy_file only, not "+req.SourceTypeName+".")
	}
	var old struct{ Name, Body string }
	if err := json.Unmarshal(req.GetSourceState().GetJson(), &old); err != nil || old.Name == "" {
		return fail("Invalid source object", "A test_legacy_file object needs its name.")
	}
	if js := req.GetSourceIdentity().GetJson(); js != nil {
		var id struct {
			FileID string `json:"file_id"`
		}
		if err := json.Unmarshal(js, &id); err != nil || id.FileID != old.Name {
			return fail("Invalid source identity", "The identity of test_legacy_file "+old.Name+" names another file.")
		}
	}
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(old.Name), "key": cty.NullVal(cty.String), "content": cty.StringVal(old.Body)})
	identity := fileIdentity(obj)
	if old.Body == "unknown-identity" {
		identity = &tfplugin6.ResourceIdentityData{IdentityData: encode(cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String)}), fileIdentityType)}
	}
	return &tfplugin6.MoveResourceState_Response{TargetState: encode(obj, fileType), TargetPrivate: req.SourcePrivate, TargetIdentity: identity}, nil
}

func (s *server5) MoveResourceState(ctx context.Context, in *tfplugin5.MoveResourceState_Request) (*tfplugin5.MoveResourceState_Response, error) {
	return relay(ctx, in, new(tfplugin6.MoveResourceState_Request), new(tfplugin5.MoveResourceState_Response), s.v6.MoveResourceState)
}
