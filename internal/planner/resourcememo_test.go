package planner

import (
	"testing"
	"testing/fstest"

	"github.com/rig-iac/rig/internal/config"
)

// TestSortedResourcesMemo: a module's sorted resource blocks are sorted
// once, and again when the module gains a block.
func TestSortedResourcesMemo(t *testing.T) {
	src := "resource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {}\ndata \"terraform_data\" \"c\" {}\n"
	cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(src), Mode: 0o644}}, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	names := func(rs []*config.Resource) (out []string) {
		for _, r := range rs {
			out = append(out, r.Addr.String())
		}
		return out
	}
	first := allResources(cfg)
	if got := names(first); len(got) != 3 || got[0] != "terraform_data.a" || got[1] != "terraform_data.b" || got[2] != "data.terraform_data.c" {
		t.Fatalf("allResources = %v, want them sorted by address", got)
	}
	if again := allResources(cfg); &again[0] != &first[0] {
		t.Errorf("the module's blocks were sorted again")
	}
	var extra *config.Resource
	for _, r := range cfg.ManagedResources {
		copied := *r
		copied.Addr.Name = "0"
		extra = &copied
		break
	}
	cfg.ManagedResources[extra.Addr] = extra
	if got := names(allResources(cfg)); len(got) != 4 || got[0] != "terraform_data.0" {
		t.Errorf("after a block was added, allResources = %v", got)
	}
}
