package explain

import (
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

func TestParseAddress(t *testing.T) {
	a := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}
	tests := []struct {
		name, in string
		want     Address
		wantErr  bool
	}{
		{"resource", "terraform_data.a", Address{Target: addrs.Target{Kind: addrs.ResourceTarget, Resource: a}}, false},
		{"instance", "terraform_data.a[0]", Address{Target: addrs.Target{Kind: addrs.InstanceTarget, Resource: a, Key: addrs.IntKey(0)}}, false},
		{"module", "module.m", Address{Target: addrs.Target{Kind: addrs.ModuleTarget, Module: "module.m"}}, false},
		{"deposed, bracket form", "terraform_data.a[0][deposed=1a2b3c4d]",
			Address{Target: addrs.Target{Kind: addrs.InstanceTarget, Resource: a, Key: addrs.IntKey(0)}, Deposed: "1a2b3c4d"}, false},
		{"deposed, as plans print it", "terraform_data.a (deposed object 1a2b3c4d)",
			Address{Target: addrs.Target{Kind: addrs.ResourceTarget, Resource: a}, Deposed: "1a2b3c4d"}, false},
		{"deposed module", "module.m[deposed=1a2b3c4d]", Address{}, true},
		{"misspelt deposed", "terraform_data.a[deposd=1]", Address{}, true},
		{"not an address", "terraform_data", Address{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAddress(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseAddress(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("ParseAddress(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}
