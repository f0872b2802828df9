package workdir

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan/planfile"
)

// PlannedConfig returns the configuration a saved plan was made from,
// loaded from the files the plan recorded: the root module's, and below it
// each called module's, found in the directory a local source names
// relative to its caller, or, for an installed module, in the directory
// the working directory's module manifest records. A call whose module's
// files are not among the recorded ones has no module below it.
func (d *Dir) PlannedConfig(pf *planfile.File) *config.Module {
	byDir := map[string]map[string][]byte{}
	for name, src := range pf.Config {
		dir := filepath.Dir(name)
		if byDir[dir] == nil {
			byDir[dir] = map[string][]byte{}
		}
		byDir[dir][name] = src
	}
	root, _ := config.LoadFiles(byDir["."])
	root.SourceDir = "."
	// Sources that refer to variables are evaluated with the plan's
	// (UseSavedPlanVariables).
	static := d.StaticEvaluator()
	root.SetStatic(nil, "", static)
	resolve := d.installedModules()
	var addChildren func(mod *config.Module)
	addChildren = func(mod *config.Module) {
		for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
			call := mod.ModuleCalls[name]
			path := mod.Path.Child(name)
			if path.Depth() > maxSavedModuleDepth || mod.ResolveCall(call, static).HasErrors() {
				continue
			}
			dir := filepath.Join(mod.SourceDir, filepath.FromSlash(config.LocalSourcePath(call.Source)))
			if !config.IsLocalSource(call.Source) {
				var ds diag.Diagnostics
				if dir, ds = resolve(strings.Join(path.Calls(), "."), call); ds.HasErrors() {
					continue
				}
			}
			files := byDir[filepath.Clean(dir)]
			if len(files) == 0 {
				continue
			}
			child, _ := config.LoadFiles(files)
			child.SourceDir = filepath.Clean(dir)
			child.SetStatic(mod, name, static)
			mod.Children[name] = child
			addChildren(child)
		}
	}
	addChildren(root)
	return root
}

// maxSavedModuleDepth bounds the nesting of modules loaded from a saved
// plan, so that a module calling itself ends.
const maxSavedModuleDepth = 64
