package command

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/workdir"
)

// packageFlags are the flags providers lock and providers mirror share:
// the platforms to select packages for and where to find them.
type packageFlags struct {
	platforms []getproviders.Platform
	fsMirrors []string
	// netMirror is -net-mirror (providers lock): the network mirror's base
	// URL; "" for none.
	netMirror string
}

func addPackageFlags(fs *flag.FlagSet, f *packageFlags) {
	fs.Func("platform", "Choose a target platform to request package checksums for, as `OS_ARCH` (linux_amd64, darwin_arm64). By default the platform rig runs on. Use this option more than once for more than one platform.", func(s string) error {
		osName, arch, ok := strings.Cut(s, "_")
		if !ok || osName == "" || arch == "" || strings.Contains(arch, "_") {
			return fmt.Errorf("must be two words separated by an underscore, like linux_amd64")
		}
		f.platforms = append(f.platforms, getproviders.Platform{OS: osName, Arch: arch})
		return nil
	})
	fs.Func("fs-mirror", "Consult only the filesystem mirror `DIR` when finding provider packages, instead of the directories init and the CLI configuration use. Use this option more than once for more than one directory.", func(s string) error {
		f.fsMirrors = append(f.fsMirrors, s)
		return nil
	})
}

// targetPlatforms returns the platforms given, or the current one.
func (f *packageFlags) targetPlatforms() []getproviders.Platform {
	if len(f.platforms) == 0 {
		return []getproviders.Platform{getproviders.CurrentPlatform}
	}
	return f.platforms
}

// runProvidersLock selects a version of each provider the configuration
// requires and records it in the dependency lock file with the hashes of
// its packages for each platform, as `terraform providers lock` does.
func runProvidersLock(m *Meta, args []string) int {
	fs := m.flagSet("providers lock")
	var f packageFlags
	addPackageFlags(fs, &f)
	fs.StringVar(&f.netMirror, "net-mirror", "", "Consult only the network mirror at the base `URL` (https) when finding provider packages, instead of the registries and mirrors init uses.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	reqs, more := workdir.TreeRequirements(cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if fs.NArg() > 0 {
		reqs, more = m.dir().SelectRequirements(reqs, fs.Args())
		ds = ds.Append(more)
	}
	sources, more := m.dir().PackageSources(f.fsMirrors, f.netMirror)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	platforms := f.targetPlatforms()
	changed, more := m.dir().LockProviders(context.Background(), reqs, sources, platforms, m.Out)
	m.showDiagnostics(ds.Append(more))
	switch {
	case more.HasErrors():
		return 1
	case !changed:
		fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1m\x1b[32mSuccess!\x1b[0m \x1b[1mrig has validated the lock file and found no need for changes.\x1b[0m\n",
			"\nSuccess! rig has validated the lock file and found no need for changes.\n"))
		return 0
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1m\x1b[32mSuccess!\x1b[0m \x1b[1mrig has updated the lock file.\x1b[0m\n",
		"\nSuccess! rig has updated the lock file.\n"))
	fmt.Fprintf(m.Out, "\nReview the changes in %s and then commit to your\nversion control system to retain the new checksums.\n", getproviders.LockFileName)
	return 0
}
