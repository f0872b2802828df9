package command

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
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

// packageSources returns the sources packages come from: the -fs-mirror
// directories when given, else those init uses (the -plugin-dir
// directories it recorded, or the CLI configuration's).
func (f *packageFlags) packageSources(m *Meta) ([]getproviders.SourceEntry, diag.Diagnostics) {
	if f.netMirror != "" {
		if len(f.fsMirrors) > 0 {
			return nil, diag.Diagnostics{diag.Errorf("Invalid provider package sources", "The -fs-mirror and -net-mirror command line options are mutually-exclusive.")}
		}
		u, err := url.Parse(f.netMirror)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, diag.Diagnostics{diag.Errorf("Invalid network mirror URL", "The -net-mirror option requires a base URL using the https: scheme, such as https://mirror.example.com/providers/; %q is not one.", f.netMirror)}
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		cli, ds := m.cliConfig()
		return []getproviders.SourceEntry{{Source: getproviders.NetworkMirror{URL: u, Client: cli.Client()}}}, ds
	}
	if len(f.fsMirrors) > 0 {
		var out []getproviders.SourceEntry
		for _, dir := range f.fsMirrors {
			out = append(out, getproviders.SourceEntry{Source: getproviders.FilesystemMirror{Dir: dir}})
		}
		return out, nil
	}
	cli, ds := m.cliConfig()
	sources, more := cli.Sources(m.dir().ReadPluginPath(), cli.Client())
	return sources, ds.Append(more)
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
		var only []getproviders.Requirement
		for _, arg := range fs.Args() {
			p, err := addrs.ParseProviderSource(arg)
			if err != nil {
				ds = ds.Append(diag.Errorf("Invalid provider argument", "The argument %q is not a valid provider source address: %s.", arg, err))
				continue
			}
			p = m.dir().RegistryHosts().Provider(p)
			i := slices.IndexFunc(reqs, func(r getproviders.Requirement) bool { return r.Provider == p })
			if i < 0 {
				ds = ds.Append(diag.Errorf("Invalid provider argument", "The provider %s is not required by the current configuration.", p))
				continue
			}
			only = append(only, reqs[i])
		}
		reqs = only
	}
	sources, more := f.packageSources(m)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	old, more := getproviders.ReadLockFile(getproviders.LockFileName)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	ctx := context.Background()
	locks := getproviders.NewLocks()
	locks.Header = old.Header
	for _, lk := range old.Sorted() {
		copied := *lk
		locks.Set(&copied)
	}
	// As in Terraform, what was obtained is said once every platform's
	// packages were found.
	var problems, obtained []string
	tmp, err := os.MkdirTemp("", "rig-providers-lock-")
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Could not retrieve providers for locking", "%s", err)))
		return 1
	}
	defer os.RemoveAll(tmp)
	for _, platform := range f.targetPlatforms() {
		inst := &getproviders.Installer{Sources: sources, Platform: platform}
		for _, req := range reqs {
			name := req.Provider.ForDisplay()
			prior := old.Get(req.Provider)
			lock := locks.Get(req.Provider)
			if lock == nil || !req.Constraints.Allows(lock.Version) {
				v, more := inst.SelectVersion(ctx, req, nil)
				if more.HasErrors() {
					problems = append(problems, fmt.Sprintf("- %s: %s", req.Provider, firstDetail(more)))
					continue
				}
				lock = &getproviders.Lock{Provider: req.Provider, Version: v}
			}
			lock.Constraints = req.Constraints.String()
			fmt.Fprintf(m.Out, "- Fetching %s %s for %s...\n", name, lock.Version, platform)
			fetched, err := inst.Fetch(ctx, req.Provider, lock.Version, tmp)
			if err != nil {
				problems = append(problems, fmt.Sprintf("- %s: %s.", req.Provider, err))
				continue
			}
			hashes := fetched.Hashes
			fmt.Fprintf(m.Out, "- Retrieved %s %s for %s (%s)\n", name, lock.Version, platform, fetched.Auth.Describe())
			var why string
			switch {
			case prior == nil || prior.Version != lock.Version:
				why = "This was a new provider and the checksums for this platform are now tracked in the lock file"
			case containsAll(prior.Hashes, hashes):
				why = "All checksums for this platform were already tracked in the lock file"
			default:
				why = "Additional checksums for this platform are now tracked in the lock file"
			}
			if prior != nil && prior.Version != lock.Version {
				lock.Hashes = nil
			}
			lock.Hashes = append(lock.Hashes, hashes...)
			locks.Set(lock)
			obtained = append(obtained, fmt.Sprintf("- Obtained %s checksums for %s; %s", name, platform, why))
		}
		if len(problems) > 0 {
			m.showDiagnostics(ds.Append(diag.Errorf("Could not retrieve providers for locking",
				"rig failed to fetch the requested providers for %s in order to calculate their checksums: some providers could not be installed:\n%s", platform, strings.Join(problems, "\n"))))
			return 1
		}
	}
	for _, line := range obtained {
		fmt.Fprintln(m.Out, line)
	}
	m.showDiagnostics(ds)
	if locks.Equal(old) {
		fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1m\x1b[32mSuccess!\x1b[0m \x1b[1mrig has validated the lock file and found no need for changes.\x1b[0m\n",
			"\nSuccess! rig has validated the lock file and found no need for changes.\n"))
		return 0
	}
	if err := getproviders.WriteLockFile(getproviders.LockFileName, locks); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to update dependency lock file", "%s", err)})
		return 1
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1m\x1b[32mSuccess!\x1b[0m \x1b[1mrig has updated the lock file.\x1b[0m\n",
		"\nSuccess! rig has updated the lock file.\n"))
	fmt.Fprintf(m.Out, "\nReview the changes in %s and then commit to your\nversion control system to retain the new checksums.\n", getproviders.LockFileName)
	return 0
}

// firstDetail is the detail of the first error in ds.
func firstDetail(ds diag.Diagnostics) string {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return d.Detail
		}
	}
	return ""
}

func containsAll(have, want []string) bool {
	for _, h := range want {
		if !slices.Contains(have, h) {
			return false
		}
	}
	return true
}
