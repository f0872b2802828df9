package planner_test

import (
	"testing"
	"testing/fstest"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/planner"
)

// An empty provider block of a child module whose caller passes a
// configuration under its name is only a proxy: the child's resources use
// the configuration passed, as in OpenTofu and Terraform. Without one
// passed, the empty block is the child's own configuration.
func TestEmptyProviderBlockIsAProxyForThePassedConfiguration(t *testing.T) {
	aws := addrs.NewDefaultProvider("aws")
	tests := []struct {
		name, call string
		want       addrs.AbsProviderConfig
	}{
		{"passed", "module \"child\" {\n  source    = \"./child\"\n  count     = 2\n  providers = { aws = aws.x }\n}\n",
			addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: aws, Alias: "x"}},
		{"not passed", "module \"child\" {\n  source = \"./child\"\n}\n",
			addrs.AbsProviderConfig{Module: addrs.RootModule.Child("child", addrs.NoKey), Provider: aws}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"main.tf":       {Data: []byte("provider \"aws\" {\n  alias  = \"x\"\n  region = \"eu-west-1\"\n}\n" + tt.call)},
				"child/main.tf": {Data: []byte("provider \"aws\" {}\nresource \"aws_instance\" \"a\" {}\n")},
			}
			root, ds := config.LoadTreeFS(fsys, config.TreeOptions{})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			child := root.Children["child"]
			got := planner.ResolveProviderConfig(child, "aws", "")
			if got.String() != tt.want.String() {
				t.Errorf("aws_instance.a uses %s, want %s", got, tt.want)
			}
		})
	}
}
