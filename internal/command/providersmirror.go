package command

import (
	"context"

	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/workdir"
)

// runProvidersMirror copies the packages of the providers the
// configuration requires into a directory in the packed mirror layout with
// the network mirror protocol's JSON files, as `terraform providers
// mirror` does.
func runProvidersMirror(m *Meta, args []string) int {
	fs := m.flagSet("providers mirror")
	var f packageFlags
	addPackageFlags(fs, &f)
	useLock := fs.Bool("lock-file", true, "Set to false to ignore the dependency lock file and select the newest versions the version constraints allow.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Wrong number of arguments", "The providers mirror command requires an output directory as a command-line argument.")
	}
	out := fs.Arg(0)
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	reqs, more := workdir.TreeRequirements(cfg)
	ds = ds.Append(more)
	sources, more := m.dir().PackageSources(f.fsMirrors, f.netMirror)
	ds = ds.Append(more)
	locks := getproviders.NewLocks()
	if *useLock {
		locks, more = m.dir().ReadLockFile()
		ds = ds.Append(more)
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	ds = ds.Append(workdir.MirrorProviders(context.Background(), reqs, sources, locks, f.targetPlatforms(), out, m.Out))
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}
