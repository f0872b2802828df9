package config

import (
	"strconv"
	"testing"

	"github.com/rig-iac/rig/internal/diag"
)

// TestRedundantProviderBlocks checks OpenTofu's warning about the empty
// provider blocks of a child module: one per provider local name, at its
// first block, suggesting the required_providers entry (with the aliases
// the blocks declared); none in the root module or for a block that
// configures something.
func TestRedundantProviderBlocks(t *testing.T) {
	tests := []struct {
		name, root, child string
		want              []string // "file:line detail"
	}{
		{
			name:  "default and aliased blocks of one provider",
			child: "provider \"aws\" {}\nprovider \"aws\" {\n  alias = \"east\"\n}\n",
			want: []string{"m/main.tf:1 Earlier versions of Terraform and OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m:\n" +
				"    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws,\n        aws.east,\n      ]\n    }"},
		},
		{
			name:  "the source from required_providers",
			child: "terraform {\n  required_providers {\n    acme = { source = \"example.com/acme/acme\" }\n  }\n}\nprovider \"acme\" {}\n",
			want: []string{"m/main.tf:6 Earlier versions of Terraform and OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"acme\" blocks and then adding or updating an entry like the following to the required_providers block of module.m:\n" +
				"    acme = {\n      source = \"example.com/acme/acme\"\n    }"},
		},
		{name: "a block that configures", child: "provider \"aws\" {\n  region = \"x\"\n}\n"},
		{name: "a block with a version", child: "provider \"aws\" {\n  version = \"1.0\"\n}\n"},
		{name: "the root module", root: "provider \"aws\" {}\n", child: "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := LoadTreeFS(mapFS(map[string]string{
				"main.tf":   "module \"m\" { source = \"./m\" }\n" + tt.root,
				"m/main.tf": tt.child,
			}), TreeOptions{})
			var got []string
			for _, d := range ds {
				if d.Summary == "Redundant empty provider block" && d.Severity == diag.Warning {
					got = append(got, d.Subject.Filename+":"+strconv.Itoa(d.Subject.Start.Line)+" "+d.Detail)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d warnings, want %d:\n%q", len(got), len(tt.want), got)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("warning %d:\n%s\nwant\n%s", i, got[i], tt.want[i])
				}
			}
		})
	}
}
