package workdir

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// PackageSources returns the sources provider packages come from
// (providers lock and mirror): the network mirror at netMirror (a base
// https: URL) or the filesystem mirrors fsMirrors when given, else those
// init uses (the -plugin-dir directories it recorded, or the CLI
// configuration's).
func (d *Dir) PackageSources(fsMirrors []string, netMirror string) ([]getproviders.SourceEntry, diag.Diagnostics) {
	if netMirror != "" {
		if len(fsMirrors) > 0 {
			return nil, diag.Diagnostics{diag.Errorf("Invalid provider package sources", "The -fs-mirror and -net-mirror command line options are mutually-exclusive.")}
		}
		u, err := url.Parse(netMirror)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, diag.Diagnostics{diag.Errorf("Invalid network mirror URL", "The -net-mirror option requires a base URL using the https: scheme, such as https://mirror.example.com/providers/; %q is not one.", netMirror)}
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		cli := d.opts.CLIConfig
		return []getproviders.SourceEntry{{Source: getproviders.NetworkMirror{URL: u, Client: cli.Client()}}}, d.opts.CLIConfigProblems
	}
	if len(fsMirrors) > 0 {
		var out []getproviders.SourceEntry
		for _, dir := range fsMirrors {
			out = append(out, getproviders.SourceEntry{Source: getproviders.FilesystemMirror{Dir: dir}})
		}
		return out, nil
	}
	cli := d.opts.CLIConfig
	sources, more := cli.Sources(d.ReadPluginPath(), cli.Client())
	return sources, diag.Diagnostics(nil).Append(d.opts.CLIConfigProblems, more)
}

// ReadLockFile reads the dependency lock file, .terraform.lock.hcl: what
// providers init selected, at which versions, with which hashes.
func (d *Dir) ReadLockFile() (*getproviders.Locks, diag.Diagnostics) {
	return getproviders.ReadLockFile(d.path(getproviders.LockFileName))
}

// LockProviders selects a version of each provider reqs require (the
// one the lock file selects while the constraints allow it) and records it
// in the dependency lock file with the hashes of its packages from sources
// for each of platforms, as `terraform providers lock` does, saying on out
// what it fetched and, once every platform's packages were found, what it
// obtained. changed reports whether it wrote the lock file.
func (d *Dir) LockProviders(ctx context.Context, reqs []getproviders.Requirement, sources []getproviders.SourceEntry, platforms []getproviders.Platform, out io.Writer) (changed bool, ds diag.Diagnostics) {
	old, ds := d.ReadLockFile()
	if ds.HasErrors() {
		return false, ds
	}
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
		return false, ds.Append(diag.Errorf("Could not retrieve providers for locking", "%s", err))
	}
	defer os.RemoveAll(tmp)
	for _, platform := range platforms {
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
			fmt.Fprintf(out, "- Fetching %s %s for %s...\n", name, lock.Version, platform)
			fetched, err := inst.Fetch(ctx, req.Provider, lock.Version, tmp)
			if err != nil {
				problems = append(problems, fmt.Sprintf("- %s: %s.", req.Provider, err))
				continue
			}
			hashes := fetched.Hashes
			fmt.Fprintf(out, "- Retrieved %s %s for %s (%s)\n", name, lock.Version, platform, fetched.Auth.Describe())
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
			return false, ds.Append(diag.Errorf("Could not retrieve providers for locking",
				"rig failed to fetch the requested providers for %s in order to calculate their checksums: some providers could not be installed:\n%s", platform, strings.Join(problems, "\n")))
		}
	}
	for _, line := range obtained {
		fmt.Fprintln(out, line)
	}
	if locks.Equal(old) {
		return false, ds
	}
	if err := getproviders.WriteLockFile(d.path(getproviders.LockFileName), locks); err != nil {
		return false, ds.Append(diag.Errorf("Failed to update dependency lock file", "%s", err))
	}
	return true, ds
}

// MirrorProviders copies the packages of the providers reqs require, for
// each of platforms, from sources into dir in the packed mirror layout
// with the network mirror protocol's JSON files, as `terraform providers
// mirror` does: the versions locks selects (or
// the newest allowed without), saying on out what it does. A provider
// that fails is reported and the others mirrored.
func MirrorProviders(ctx context.Context, reqs []getproviders.Requirement, sources []getproviders.SourceEntry, locks *getproviders.Locks, platforms []getproviders.Platform, dir string, out io.Writer) diag.Diagnostics {
	var ds diag.Diagnostics
	tmp, err := os.MkdirTemp("", "rig-providers-mirror-")
	if err != nil {
		return ds.Append(diag.Errorf("Cannot download provider", "%s", err))
	}
	defer os.RemoveAll(tmp)
	for _, req := range reqs {
		p := req.Provider
		fmt.Fprintf(out, "- Mirroring %s...\n", p.ForDisplay())
		inst := &getproviders.Installer{Sources: sources, Platform: platforms[0]}
		v, more := inst.SelectVersion(ctx, req, locks.Get(p))
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		switch {
		case locks.Get(p) != nil:
			fmt.Fprintf(out, "  - Selected v%s to match dependency lock file\n", v)
		case len(req.Constraints) > 0:
			fmt.Fprintf(out, "  - Selected v%s to meet constraints %s\n", v, req.Constraints)
		default:
			fmt.Fprintf(out, "  - Selected v%s with no constraints\n", v)
		}
		mirrored := false
		for _, platform := range platforms {
			fmt.Fprintf(out, "  - Downloading package for %s...\n", platform)
			inst.Platform = platform
			fetched, err := inst.Fetch(ctx, p, v, tmp)
			if err == nil {
				_, err = getproviders.WriteMirrorArchive(dir, fetched.Package)
			}
			if err != nil {
				ds = ds.Append(diag.Errorf("Cannot download provider", "Failed to download %s v%s for %s: %s.", p, v, platform, err))
				continue
			}
			mirrored = true
		}
		if mirrored {
			if err := getproviders.WriteMirrorIndex(dir, p); err != nil {
				ds = ds.Append(diag.Errorf("Cannot write provider mirror index", "%s", err))
			}
		}
	}
	return ds
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
