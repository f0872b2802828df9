package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/encoding/protowire"
)

// mirrorProvider returns the executable of provider TYPE from the local
// mirror .ci/providers lays out, or skips.
func mirrorProvider(t *testing.T, typ string) string {
	t.Helper()
	if os.Getenv("RIG_TEST_REAL_PROVIDERS") != "1" {
		t.Skip("set RIG_TEST_REAL_PROVIDERS=1 to drive real providers")
	}
	mirror := os.Getenv("RIG_TEST_PROVIDER_MIRROR")
	if mirror == "" {
		cache, _ := os.UserCacheDir()
		mirror = filepath.Join(cache, "rig-providers", "mirror")
	}
	matches, _ := filepath.Glob(filepath.Join(mirror, "registry.terraform.io", "hashicorp", typ, "*", "*", "terraform-provider-"+typ+"*"))
	if len(matches) == 0 {
		t.Skipf("no %s provider in the mirror %s (run .ci/providers)", typ, mirror)
	}
	return matches[0]
}

// startConfigured starts a mirror provider and configures it empty.
func startConfigured(t *testing.T, typ string) (*Provider, *provider.Schemas) {
	t.Helper()
	p, err := Start(Meta{Path: mirrorProvider(t, typ), Provider: addrs.NewDefaultProvider(typ)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	ctx := context.Background()
	schemas, ds := p.GetProviderSchema(ctx)
	if ds.HasErrors() {
		t.Fatalf("GetProviderSchema: %v", ds.Err())
	}
	cfg := objectWith(schemas.Provider.Block, nil)
	if ds := p.ConfigureProvider(ctx, provider.ConfigureRequest{TerraformVersion: "1.11.0", Config: cfg}); ds.HasErrors() {
		t.Fatalf("ConfigureProvider: %v", ds.Err())
	}
	return p, schemas
}

// TestRealEphemeralRandomPassword validates, opens and closes the random
// provider's ephemeral random_password, as a plan does.
func TestRealEphemeralRandomPassword(t *testing.T) {
	p, schemas := startConfigured(t, "random")
	sch, ok := schemas.EphemeralResources["random_password"]
	if !ok {
		t.Fatalf("no ephemeral random_password in the schema: %v", schemas.EphemeralResources)
	}
	if a := sch.Block.Attributes["result"]; a == nil || !a.Sensitive || !a.Computed {
		t.Fatalf("result attribute = %+v, want computed and sensitive", a)
	}
	ctx := context.Background()
	cfg := objectWith(sch.Block, map[string]cty.Value{"length": cty.NumberIntVal(20)})
	if ds := p.ValidateEphemeralResourceConfig(ctx, "random_password", cfg); ds.HasErrors() {
		t.Fatalf("ValidateEphemeralResourceConfig: %v", ds.Err())
	}
	open := p.OpenEphemeralResource(ctx, provider.OpenEphemeralRequest{TypeName: "random_password", Config: cfg})
	if open.Diagnostics.HasErrors() {
		t.Fatalf("OpenEphemeralResource: %v", open.Diagnostics.Err())
	}
	res := open.Result.GetAttr("result")
	if res.IsNull() || !res.IsKnown() || len(res.AsString()) != 20 {
		t.Fatalf("result = %#v, want a string of 20 characters", res)
	}
	if ds := p.CloseEphemeralResource(ctx, provider.CloseEphemeralRequest{TypeName: "random_password", Private: open.Private}); ds.HasErrors() {
		t.Fatalf("CloseEphemeralResource: %v", ds.Err())
	}
	bad := objectWith(sch.Block, map[string]cty.Value{"length": cty.NumberIntVal(0)})
	if ds := p.ValidateEphemeralResourceConfig(ctx, "random_password", bad); !ds.HasErrors() {
		t.Errorf("length 0 validated without error")
	}
	if ds := p.ValidateEphemeralResourceConfig(ctx, "random_nothing", cfg); !ds.HasErrors() {
		t.Errorf("an unknown ephemeral type validated without error")
	}
}

// TestRealWriteOnlySchema reads the tls provider's write-only attribute and
// ephemeral tls_private_key.
func TestRealWriteOnlySchema(t *testing.T) {
	p, schemas := startConfigured(t, "tls")
	cert := schemas.ResourceTypes["tls_self_signed_cert"].Block
	if a := cert.Attributes["private_key_pem_wo"]; a == nil || !a.WriteOnly {
		t.Fatalf("private_key_pem_wo = %+v, want write-only", a)
	}
	if a := cert.Attributes["private_key_pem"]; a == nil || a.WriteOnly {
		t.Fatalf("private_key_pem = %+v, want not write-only", a)
	}
	sch, ok := schemas.EphemeralResources["tls_private_key"]
	if !ok {
		t.Fatal("no ephemeral tls_private_key")
	}
	cfg := objectWith(sch.Block, map[string]cty.Value{"algorithm": cty.StringVal("ED25519")})
	open := p.OpenEphemeralResource(context.Background(), provider.OpenEphemeralRequest{TypeName: "tls_private_key", Config: cfg})
	if open.Diagnostics.HasErrors() {
		t.Fatalf("OpenEphemeralResource: %v", open.Diagnostics.Err())
	}
	if pem := open.Result.GetAttr("private_key_pem"); pem.IsNull() || len(pem.AsString()) < 40 {
		t.Fatalf("private_key_pem = %#v", pem)
	}
}

// TestDecodeEphemeralResponse reads every field of an Open response and a
// Renew response's private data from field 3.
func TestDecodeEphemeralResponse(t *testing.T) {
	var b []byte
	var ts []byte
	ts = protowire.AppendTag(ts, 1, protowire.VarintType)
	ts = protowire.AppendVarint(ts, 1700000000)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, ts)
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte("priv"))
	b = protowire.AppendTag(b, 9, protowire.VarintType) // a later field, skipped
	b = protowire.AppendVarint(b, 7)
	got, err := decodeEphemeralResponse(b, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !got.renewAt.Equal(time.Unix(1700000000, 0)) || string(got.private) != "priv" {
		t.Fatalf("got %+v", got)
	}
	renew := appendPrivateRequest("x", []byte("p2")) // field 2; a Renew response has it at 3
	if _, err := decodeEphemeralResponse(renew[:1], 3); err == nil {
		t.Error("a truncated message decoded without error")
	}
}
