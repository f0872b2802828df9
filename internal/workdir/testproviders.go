package workdir

import (
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// TestRequirements returns the plugin providers the test files in the
// working directory and testDir need, as OpenTofu's init counts them: those
// their provider blocks configure (with the deprecated version constraint a
// block gives), named as cfg, the configuration under test, names them, and
// those the modules of their run blocks require (installed by init's module
// step). Init installs them with the configuration's, so that rig test
// finds them. The test files' own problems were reported by the module step.
func (d *Dir) TestRequirements(cfg *config.Module, testDir string) ([]getproviders.Requirement, diag.Diagnostics) {
	files, fds := config.LoadTestFiles(d.root, testDir)
	if fds.HasErrors() {
		return nil, nil
	}
	var ds diag.Diagnostics
	var reqs []getproviders.Requirement
	at := map[addrs.Provider]int{}
	add := func(r getproviders.Requirement) {
		if i, ok := at[r.Provider]; ok {
			reqs[i].Constraints = reqs[i].Constraints.Merge(r.Constraints)
			return
		}
		at[r.Provider] = len(reqs)
		reqs = append(reqs, r)
	}
	load := d.TestModuleLoader()
	loaded := map[string]bool{}
	for _, f := range files {
		for _, key := range slices.Sorted(maps.Keys(f.Providers)) {
			pb := f.Providers[key]
			p := cfg.ProviderFor(pb.Name)
			if p.IsBuiltIn() {
				continue
			}
			cs, err := getproviders.ParseConstraints(pb.Version)
			if err != nil {
				ds = ds.Append(diag.At(pb.DeclRange, "Invalid version constraint", err.Error()+"."))
				continue
			}
			add(getproviders.Requirement{Provider: p, Constraints: cs})
		}
		for _, run := range f.Runs {
			if run.Module == nil || loaded[run.Module.Source+"@"+run.Module.Version] {
				continue
			}
			loaded[run.Module.Source+"@"+run.Module.Version] = true
			mod, more := load(f, run)
			if more.HasErrors() || mod == nil {
				ds = ds.Append(more.Errors())
				continue
			}
			modReqs, more := TreeRequirements(mod)
			ds = ds.Append(more)
			for _, r := range modReqs {
				add(r)
			}
		}
	}
	slices.SortFunc(reqs, func(a, b getproviders.Requirement) int { return a.Provider.Compare(b.Provider) })
	return reqs, ds
}
