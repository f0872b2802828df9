package planner_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// validatingProvider is the planner tests' provider, whose test_echo data
// source refuses the input providertest.Refused, counting the
// configurations it is given.
type validatingProvider struct {
	echoProvider
	configured *atomic.Int32
}

func (p validatingProvider) ValidateDataResourceConfig(ctx context.Context, typeName string, cfg cty.Value) diag.Diagnostics {
	if typeName == echoType {
		if in := cfg.GetAttr("input"); in.IsKnown() && !in.IsNull() && in.AsString() == providertest.Refused {
			return diag.Diagnostics{{Severity: diag.Error, Summary: "Invalid input", Detail: "Refused.", AttributePath: cty.GetAttrPath("input")}}
		}
	}
	return p.echoProvider.ValidateDataResourceConfig(ctx, typeName, cfg)
}

func (p validatingProvider) ConfigureProvider(ctx context.Context, req provider.ConfigureRequest) diag.Diagnostics {
	p.configured.Add(1)
	return p.echoProvider.ConfigureProvider(ctx, req)
}

// TestValidateAsksProviders checks that validation hands every resource,
// data source and ephemeral resource to its provider's validation call,
// evaluated with what is not known statically unknown, and places what the
// provider refuses at the attribute, naming the resource, never quoting a
// sensitive value, and without configuring the provider.
func TestValidateAsksProviders(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // "file:line:column summary [address] detail"
	}{{
		name:  "managed resource",
		files: map[string]string{"main.tf": "resource \"test_thing\" \"a\" {\n  value = \"invalid\"\n}\n"},
		want:  []string{`main.tf:2:11 Invalid value [test_thing.a] The value "invalid" is refused.`},
	}, {
		name:  "data source",
		files: map[string]string{"main.tf": "data \"test_echo\" \"d\" {\n  input = \"invalid\"\n}\n"},
		want:  []string{`main.tf:2:11 Invalid input [data.test_echo.d] Refused.`},
	}, {
		name:  "ephemeral resource",
		files: map[string]string{"main.tf": "ephemeral \"test_token\" \"t\" {\n  name = \"invalid\"\n}\n"},
		want:  []string{`main.tf:2:10 Invalid name [ephemeral.test_token.t] The name "invalid" is refused.`},
	}, {
		name: "in a module, with count",
		files: map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n}\n",
			"m/main.tf": "resource \"test_thing\" \"a\" {\n  count = 2\n  value = \"invalid\"\n}\n",
		},
		want: []string{`m/main.tf:3:11 Invalid value [module.m.test_thing.a] The value "invalid" is refused.`},
	}, {
		name:  "local value known",
		files: map[string]string{"main.tf": "locals {\n  v = \"invalid\"\n}\nresource \"test_thing\" \"a\" {\n  value = local.v\n}\n"},
		want:  []string{`main.tf:5:11 Invalid value [test_thing.a] The value "invalid" is refused.`},
	}, {
		name:  "sensitive value redacted",
		files: map[string]string{"main.tf": "resource \"test_thing\" \"a\" {\n  value = sensitive(\"invalid\")\n}\n"},
		want:  []string{`main.tf:2:11 Invalid value [test_thing.a] The value (sensitive value) is refused.`},
	}, {
		name:  "ephemeral variable",
		files: map[string]string{"main.tf": "variable \"e\" {\n  ephemeral = true\n}\nresource \"test_thing\" \"a\" {\n  value = var.e\n}\n"},
		want:  []string{`main.tf:5:11 Ephemeral value used in non-ephemeral context [test_thing.a] Attribute ".value" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.`},
	}, {
		name:  "variable unknown",
		files: map[string]string{"main.tf": "variable \"v\" {\n  default = \"invalid\"\n}\nresource \"test_thing\" \"a\" {\n  value = var.v\n}\n"},
	}, {
		name:  "each unknown",
		files: map[string]string{"main.tf": "resource \"test_thing\" \"a\" {\n  for_each = toset([\"invalid\"])\n  value = each.key\n}\nresource \"test_thing\" \"b\" {\n  count = 1\n  value = count.index == 0 ? \"invalid\" : \"x\"\n}\n"},
	}, {
		name:  "other resource unknown",
		files: map[string]string{"main.tf": "resource \"test_thing\" \"a\" {\n  value = \"ok\"\n}\nresource \"test_thing\" \"b\" {\n  value = test_thing.a.value\n}\n"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := fstest.MapFS{}
			for name, src := range tt.files {
				files[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
			}
			cfg, ds := config.LoadTreeFS(files, config.TreeOptions{})
			if ds.HasErrors() {
				t.Fatalf("configuration does not load: %v", ds.Err())
			}
			var configured atomic.Int32
			set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
				return validatingProvider{echoProvider{Provider: providertest.New()}, &configured}, nil
			}})
			defer set.Close()
			ds = planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{})
			var got []string
			for _, d := range ds {
				s := d.Summary
				if d.Subject != nil {
					s = fmt.Sprintf("%s:%d:%d %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, s)
				}
				got = append(got, fmt.Sprintf("%s [%s] %s", s, d.AddressText(), strings.ReplaceAll(d.Detail, "\n", " ")))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if n := configured.Load(); n != 0 {
				t.Errorf("the provider was configured %d times, want never", n)
			}
		})
	}
}
