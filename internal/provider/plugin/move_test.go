package plugin

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

// MoveResourceState carries the source object, private data and identity
// to the provider over both protocols, and returns the object and the
// identity it has under the target type.
func TestMoveResourceState(t *testing.T) {
	for _, v := range []string{"5", "6"} {
		t.Run("protocol"+v, func(t *testing.T) {
			t.Setenv("RIG_TESTPROVIDER_WORLD", t.TempDir())
			p := startTest(t, v)
			ctx := context.Background()
			req := provider.MoveRequest{
				SourceProvider: "registry.terraform.io/rig/test", SourceTypeName: "test_legacy_file", TargetTypeName: "test_file",
				SourceStateJSON: []byte(`{"name":"f1","body":"hi"}`), SourcePrivate: []byte("p"),
				SourceIdentityJSON: []byte(`{"file_id":"f1"}`),
			}
			resp := p.MoveResourceState(ctx, req)
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			want := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("f1"), "key": cty.NullVal(cty.String), "content": cty.StringVal("hi")})
			if !resp.TargetState.RawEquals(want) || string(resp.TargetPrivate) != "p" {
				t.Errorf("moved object %#v, private %q", resp.TargetState, resp.TargetPrivate)
			}
			if !resp.TargetIdentity.RawEquals(cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("f1")})) {
				t.Errorf("target identity %#v", resp.TargetIdentity)
			}
			// The source identity reaches the provider, which checks it.
			req.SourceIdentityJSON = []byte(`{"file_id":"f2"}`)
			if resp := p.MoveResourceState(ctx, req); !resp.Diagnostics.HasErrors() || resp.Diagnostics[0].Summary != "Invalid source identity" {
				t.Errorf("move with another object's identity: %v", resp.Diagnostics)
			}
		})
	}
}
