package command

import (
	"context"
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/diag"
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
		return m.argsError(fs, "No output directory specified", "The providers mirror command requires an output directory as a command-line argument.")
	}
	out := fs.Arg(0)
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	reqs, more := workdir.TreeRequirements(cfg)
	ds = ds.Append(more)
	sources, more := f.packageSources(m)
	ds = ds.Append(more)
	locks := getproviders.NewLocks()
	if *useLock {
		locks, more = getproviders.ReadLockFile(getproviders.LockFileName)
		ds = ds.Append(more)
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "rig-providers-mirror-")
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Cannot download provider", "%s", err)))
		return 1
	}
	defer os.RemoveAll(tmp)
	for _, req := range reqs {
		p := req.Provider
		fmt.Fprintf(m.Out, "- Mirroring %s...\n", p.ForDisplay())
		inst := &getproviders.Installer{Sources: sources, Platform: f.targetPlatforms()[0]}
		v, more := inst.SelectVersion(ctx, req, locks.Get(p))
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		switch {
		case locks.Get(p) != nil:
			fmt.Fprintf(m.Out, "  - Selected v%s to match dependency lock file\n", v)
		case len(req.Constraints) > 0:
			fmt.Fprintf(m.Out, "  - Selected v%s to meet constraints %s\n", v, req.Constraints)
		default:
			fmt.Fprintf(m.Out, "  - Selected v%s with no constraints\n", v)
		}
		mirrored := false
		for _, platform := range f.targetPlatforms() {
			fmt.Fprintf(m.Out, "  - Downloading package for %s...\n", platform)
			inst.Platform = platform
			fetched, err := inst.Fetch(ctx, p, v, tmp)
			if err == nil {
				_, err = getproviders.WriteMirrorArchive(out, fetched.Package)
			}
			if err != nil {
				ds = ds.Append(diag.Errorf("Cannot download provider", "Failed to download %s v%s for %s: %s.", p, v, platform, err))
				continue
			}
			mirrored = true
		}
		if mirrored {
			if err := getproviders.WriteMirrorIndex(out, p); err != nil {
				ds = ds.Append(diag.Errorf("Cannot write provider mirror index", "%s", err))
			}
		}
	}
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}
