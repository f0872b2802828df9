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

// TestEphemeralCalls validates, opens, renews and closes the test
// provider's ephemeral test_token over both protocol versions: the value,
// private data and renewal times go through, and the provider's
// diagnostics come back.
func TestEphemeralCalls(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		schemas, ds := p.GetProviderSchema(ctx)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		sch, ok := schemas.EphemeralResources["test_token"]
		if !ok || sch.Block.Attributes["secret"] == nil || !sch.Block.Attributes["secret"].Sensitive {
			t.Fatalf("test_token schema = %+v", sch)
		}
		cfg := func(name string) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secret": cty.NullVal(cty.String)})
		}
		if ds := p.ValidateEphemeralResourceConfig(ctx, "test_token", cfg("a")); ds.HasErrors() {
			t.Fatalf("validate: %v", ds.Err())
		}
		if ds := p.ValidateEphemeralResourceConfig(ctx, "test_token", cfg("")); !ds.HasErrors() || ds[0].Summary != "Invalid name" {
			t.Errorf("validate an empty name: %v, want Invalid name", ds)
		}
		open := p.OpenEphemeralResource(ctx, provider.OpenEphemeralRequest{TypeName: "test_token", Config: cfg("a")})
		if open.Diagnostics.HasErrors() {
			t.Fatalf("open: %v", open.Diagnostics.Err())
		}
		if got := open.Result.GetAttr("secret"); !got.RawEquals(cty.StringVal("token-a")) {
			t.Errorf("secret = %#v", got)
		}
		if string(open.Private) != "p-a" || !open.RenewAt.Equal(time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)) {
			t.Errorf("private %q, renew at %v", open.Private, open.RenewAt)
		}
		renew := p.RenewEphemeralResource(ctx, provider.RenewEphemeralRequest{TypeName: "test_token", Private: open.Private})
		if renew.Diagnostics.HasErrors() || string(renew.Private) != "p-a+renewed" || !renew.RenewAt.Equal(time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Errorf("renew: private %q, renew at %v, %v", renew.Private, renew.RenewAt, renew.Diagnostics)
		}
		if ds := p.CloseEphemeralResource(ctx, provider.CloseEphemeralRequest{TypeName: "test_token", Private: renew.Private}); len(ds) > 0 {
			t.Errorf("close: %v", ds)
		}
		if ds := p.CloseEphemeralResource(ctx, provider.CloseEphemeralRequest{TypeName: "test_token", Private: []byte("p-fail")}); !ds.HasErrors() || ds[0].Summary != "Close failed" {
			t.Errorf("close of a failing token: %v, want Close failed", ds)
		}
	})
}
