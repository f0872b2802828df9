package getproviders

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// Requirement is one provider a configuration needs, with the version
// constraints that apply to it (nil allows any version).
type Requirement struct {
	Provider    addrs.Provider
	Constraints Constraints
}

// SourceEntry is a source with the providers it may serve: Include
// patterns ("hashicorp/*", "example.com/*/*"; none means all) minus
// Exclude patterns.
type SourceEntry struct {
	Source  Source
	Include []Pattern
	Exclude []Pattern
}

// serves reports whether the entry may be asked for p.
func (e SourceEntry) serves(p addrs.Provider) bool {
	if len(e.Include) > 0 && !anyMatch(e.Include, p) {
		return false
	}
	return !anyMatch(e.Exclude, p)
}

// Installer selects and installs provider packages into TargetDir in the
// layout Terraform uses (TargetDir/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/).
type Installer struct {
	// Sources are asked in order; a version any of them has is available,
	// and its package comes from the first that has it.
	Sources []SourceEntry
	// TargetDir is where packages are installed, normally .terraform/providers.
	TargetDir string
	// CacheDir, when set, is a shared cache (plugin_cache_dir): archives are
	// unpacked there once and linked into TargetDir. A downloaded package
	// already in the cache is used when it matches the lock file's hashes.
	CacheDir string
	// CacheMayBreakLock (plugin_cache_may_break_dependency_lock_file) also
	// uses a cached package of a provider the lock file does not record
	// yet, whose lock then holds only the cached package's hash.
	CacheMayBreakLock bool
	// Platform is the platform to install for (CurrentPlatform when zero).
	Platform Platform
	// Log receives one progress line per step ("- Installing hashicorp/null v3.2.4...").
	Log func(string)

	// thirdParty records, during Install, that a package signed by a key
	// other than HashiCorp's was installed.
	thirdParty bool
	// locallyHashed records, during Install, the providers whose lock
	// holds only hashes computed here (LocallyHashed).
	locallyHashed []addrs.Provider
}

// InstallOptions changes how Install selects versions.
type InstallOptions struct {
	// Upgrade ignores the versions recorded in the lock file and selects
	// the newest version each provider's constraints allow.
	Upgrade bool
}

func (i *Installer) platform() Platform {
	if i.Platform == (Platform{}) {
		return CurrentPlatform
	}
	return i.Platform
}

func (i *Installer) log(format string, args ...any) {
	if i.Log != nil {
		i.Log(fmt.Sprintf(format, args...))
	}
}

// Install selects a version of every requirement (the locked one, unless
// opts.Upgrade or the constraints exclude it; else the newest one the
// sources have that the constraints allow), installs its package, checks
// it against the hashes locks records, and returns the new locks: one per
// requirement, with the hashes of the installed packages added. locks is
// not modified. With errors, the returned locks hold what did succeed,
// plus the old locks of the providers that failed.
func (i *Installer) Install(ctx context.Context, reqs []Requirement, locks *Locks, opts InstallOptions) (*Locks, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := NewLocks()
	if locks != nil {
		out.Header = locks.Header
	}
	sort.Slice(reqs, func(a, b int) bool { return reqs[a].Provider.String() < reqs[b].Provider.String() })
	i.thirdParty = false
	i.locallyHashed = nil
	for _, req := range reqs {
		lock, more := i.installOne(ctx, req, locks.Get(req.Provider), opts)
		ds = ds.Append(more)
		if lock == nil {
			lock = locks.Get(req.Provider)
		}
		if lock != nil {
			out.Set(lock)
		}
	}
	if i.thirdParty {
		i.log("\nPartner and community providers are signed by their developers.\n" +
			"If you'd like to know more about provider signing, you can read about it here:\n" +
			"https://developer.hashicorp.com/terraform/cli/plugins/signing")
	}
	return out, ds
}

func (i *Installer) installOne(ctx context.Context, req Requirement, locked *Lock, opts InstallOptions) (*Lock, diag.Diagnostics) {
	p := req.Provider
	cs := req.Constraints.String()
	platform := i.platform()
	var selected Version
	useLock := locked != nil && !opts.Upgrade
	if useLock && !req.Constraints.Allows(locked.Version) {
		return nil, diag.Diagnostics{diag.Errorf("Failed to query available provider packages",
			"Could not retrieve the list of available versions for provider %s: locked provider %s %s does not match configured version constraint %s; must use rig init -upgrade to allow selection of new versions.",
			p.ForDisplay(), p, locked.Version, cs)}
	}
	if useLock {
		i.log("- Reusing previous version of %s from the dependency lock file", p.ForDisplay())
		selected = locked.Version
		// Already installed and matching the lock: nothing to fetch.
		if lock, ok := i.installedAsLocked(p, selected, cs, locked.Hashes); ok {
			return lock, nil
		}
		// In the shared cache and matching the lock: linked from there
		// without asking any source (which may be out of reach).
		if h, ok := i.cachedPackage(p, selected, locked.Hashes); ok {
			return i.useCached(p, selected, cs, locked.Hashes, h)
		}
	} else if cs == "" {
		i.log("- Finding latest version of %s...", p.ForDisplay())
	} else {
		i.log("- Finding %s versions matching %q...", p.ForDisplay(), cs)
	}

	selected, ds := i.selectVersion(ctx, req, selected, useLock)
	if ds.HasErrors() {
		return nil, ds
	}
	if !useLock && locked != nil && locked.Version == selected {
		// As OpenTofu with -upgrade: the version selected is the one the
		// lock file records and is installed already.
		if lock, ok := i.installedAsLocked(p, selected, cs, locked.Hashes); ok {
			return lock, nil
		}
	}

	pkg, err := i.findPackage(ctx, p, selected, platform)
	if err != nil {
		return nil, diag.Diagnostics{installError(p, selected, err)}
	}
	var prior []string
	if locked != nil && locked.Version == selected {
		prior = locked.Hashes
	}
	if pkg.Kind == PackageHTTP {
		return i.installRemote(ctx, pkg, cs, prior)
	}
	i.log("- Installing %s v%s...", p.ForDisplay(), selected)
	h1, zh, err := i.installPackage(pkg)
	if err != nil {
		return nil, diag.Diagnostics{installError(p, selected, err)}
	}
	hashes := []string{h1}
	if zh != "" {
		hashes = append(hashes, zh)
	}
	if !matchesAny(hashes, prior) {
		return nil, diag.Diagnostics{lockMismatch(p, selected, hashes, prior)}
	}
	i.log("- Installed %s v%s (%s)", p.ForDisplay(), selected, Unauthenticated)
	i.noteLocallyHashed(p, prior, hashes, nil)
	return &Lock{Provider: p, Version: selected, Constraints: cs, Hashes: append(append([]string(nil), prior...), hashes...)}, nil
}

// installedAsLocked returns the lock of provider p at version v when the
// target directory holds a package of it that hashes matches, saying so.
func (i *Installer) installedAsLocked(p addrs.Provider, v Version, cs string, hashes []string) (*Lock, bool) {
	dir := i.packageDir(i.TargetDir, p, v)
	if dir == "" {
		return nil, false
	}
	if h, err := HashDir(dir); err != nil || !containsString(hashes, h) {
		return nil, false
	}
	if _, ok := FindExecutable(dir, p); !ok {
		return nil, false
	}
	i.log("- Using previously-installed %s v%s", p.ForDisplay(), v)
	return &Lock{Provider: p, Version: v, Constraints: cs, Hashes: hashes}, true
}

func installError(p addrs.Provider, v Version, err error) diag.Diagnostic {
	return diag.Errorf("Failed to install provider", "Error while installing %s v%s: %s.", p.ForDisplay(), v, err)
}

func lockMismatch(p addrs.Provider, v Version, hashes, prior []string) diag.Diagnostic {
	return diag.Errorf("Failed to install provider",
		"Error while installing %s v%s: the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms, or because the package was changed since it was locked). The package has %s; the lock file trusts:\n%s",
		p.ForDisplay(), v, p, v, strings.Join(hashes, ", "), bulletList(prior))
}

// installRemote installs a package a network source serves: from the
// shared cache when it holds a package the lock trusts (or, with
// CacheMayBreakLock, any package of a provider not locked yet), else by
// downloading it, checking it, and unpacking it (into the cache first when
// there is one). The lock records the installed package's h1: hash, the
// prior hashes, and the hashes of every platform a registry signed.
func (i *Installer) installRemote(ctx context.Context, pkg Package, cs string, prior []string) (*Lock, diag.Diagnostics) {
	p, v := pkg.Provider, pkg.Version
	if h, ok := i.cachedPackage(p, v, prior); ok {
		return i.useCached(p, v, cs, prior, h)
	}
	i.log("- Installing %s v%s...", p.ForDisplay(), v)
	tmp, err := os.MkdirTemp("", "rig-provider-")
	if err != nil {
		return nil, diag.Diagnostics{installError(p, v, err)}
	}
	defer os.RemoveAll(tmp)
	local, auth, err := download(ctx, pkg, tmp)
	if err != nil {
		return nil, diag.Diagnostics{installError(p, v, err)}
	}
	if len(prior) > 0 {
		h1, err := HashZip(local.Location)
		if err != nil {
			return nil, diag.Diagnostics{installError(p, v, err)}
		}
		zh, err := HashZipLegacy(local.Location)
		if err != nil {
			return nil, diag.Diagnostics{installError(p, v, err)}
		}
		if !matchesAny([]string{h1, zh}, prior) {
			return nil, diag.Diagnostics{lockMismatch(p, v, []string{h1, zh}, prior)}
		}
	}
	h1, _, err := i.installPackage(local)
	if err != nil {
		return nil, diag.Diagnostics{installError(p, v, err)}
	}
	if auth.Trust == SigningSkipped {
		i.log("- Installed %s v%s. Signature validation was skipped due to the registry not containing GPG keys for this provider", p.ForDisplay(), v)
	} else {
		i.log("- Installed %s v%s (%s)", p.ForDisplay(), v, auth.Describe())
	}
	if auth.ThirdPartySigned() {
		i.thirdParty = true
	}
	i.noteLocallyHashed(p, prior, []string{h1}, auth.RegistryHashes)
	hashes := append(append([]string{h1}, prior...), auth.RegistryHashes...)
	return &Lock{Provider: p, Version: v, Constraints: cs, Hashes: hashes}, nil
}

// cachedPackage returns the h1: hash of the shared cache's package of p at
// v when it may be used: it matches a hash of prior (the lock's, for that
// version), or prior is empty and CacheMayBreakLock allows any.
func (i *Installer) cachedPackage(p addrs.Provider, v Version, prior []string) (string, bool) {
	if i.CacheDir == "" {
		return "", false
	}
	cached := PackageDir(i.CacheDir, p, v, i.platform())
	h, err := HashDir(cached)
	if err != nil || !(containsString(prior, h) || (len(prior) == 0 && i.CacheMayBreakLock)) {
		return "", false
	}
	_, ok := FindExecutable(cached, p)
	return h, ok
}

// useCached links the shared cache's package of p at v (whose hash is h)
// into the target directory.
func (i *Installer) useCached(p addrs.Provider, v Version, cs string, prior []string, h string) (*Lock, diag.Diagnostics) {
	i.log("- Using %s v%s from the shared cache directory", p.ForDisplay(), v)
	if err := i.linkFromCache(Package{Provider: p, Version: v, Platform: i.platform()}); err != nil {
		return nil, diag.Diagnostics{installError(p, v, err)}
	}
	i.noteLocallyHashed(p, prior, []string{h}, nil)
	return &Lock{Provider: p, Version: v, Constraints: cs, Hashes: append(append([]string(nil), prior...), h)}, nil
}

// download fetches a PackageHTTP package into dir and returns it as a
// local archive, with what its checks established.
func download(ctx context.Context, pkg Package, dir string) (Package, Authentication, error) {
	p := pkg.Provider
	to := filepath.Join(dir, fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, pkg.Version, pkg.Platform))
	auth, err := pkg.Remote.Download(ctx, to)
	if err != nil {
		return Package{}, Authentication{}, err
	}
	local := pkg
	local.Kind, local.Location, local.Remote = PackageZip, to, nil
	return local, auth, nil
}

// linkFromCache links the cached package of pkg into the target directory.
func (i *Installer) linkFromCache(pkg Package) error {
	target := PackageDir(i.TargetDir, pkg.Provider, pkg.Version, pkg.Platform)
	if err := os.RemoveAll(target); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	abs, err := filepath.Abs(PackageDir(i.CacheDir, pkg.Provider, pkg.Version, pkg.Platform))
	if err != nil {
		return err
	}
	return linkOrCopyDir(abs, target)
}

// SelectVersion selects the version of req that Install would: the locked
// one (when locked is non-nil, as long as the sources have it), else the
// newest one the sources have for the installer's platform that the
// constraints allow. It installs nothing.
func (i *Installer) SelectVersion(ctx context.Context, req Requirement, locked *Lock) (Version, diag.Diagnostics) {
	if locked != nil {
		if !req.Constraints.Allows(locked.Version) {
			return Version{}, diag.Diagnostics{diag.Errorf("Failed to query available provider packages",
				"Could not retrieve the list of available versions for provider %s: locked provider %s %s does not match configured version constraint %s; must use rig init -upgrade to allow selection of new versions.",
				req.Provider.ForDisplay(), req.Provider, locked.Version, req.Constraints)}
		}
		return i.selectVersion(ctx, req, locked.Version, true)
	}
	return i.selectVersion(ctx, req, Version{}, false)
}

// selectVersion checks that the sources have locked (useLock) or selects
// the newest version they have that req's constraints allow.
func (i *Installer) selectVersion(ctx context.Context, req Requirement, locked Version, useLock bool) (Version, diag.Diagnostics) {
	p, cs, platform := req.Provider, req.Constraints.String(), i.platform()
	selected := locked
	available, searched, err := i.availableVersions(ctx, p, platform)
	if err != nil {
		return Version{}, diag.Diagnostics{diag.Errorf("Failed to query available provider packages",
			"Could not retrieve the list of available versions for provider %s: %s.", p.ForDisplay(), err)}
	}
	if len(available) == 0 {
		return Version{}, diag.Diagnostics{notFound(p, platform, searched, i.Sources)}
	}
	if useLock {
		if !containsVersion(available, selected) {
			return Version{}, diag.Diagnostics{diag.Errorf("Failed to install provider",
				"Error while installing %s v%s: the version recorded in the dependency lock file is not in any of the search locations (they have %s). Run \"rig init -upgrade\" to select another version.\n\nSearched:\n%s",
				p.ForDisplay(), selected, versionList(available), bulletList(searched))}
		}
	} else {
		available.SortNewestFirst()
		found := false
		for _, v := range available {
			if req.Constraints.Allows(v) {
				selected, found = v, true
				break
			}
		}
		if !found {
			// As OpenTofu reports it; the constraints are those of every
			// module that requires the provider, which rig providers lists.
			return Version{}, diag.Diagnostics{diag.Errorf("Failed to resolve provider packages",
				"Could not resolve provider %s: no available releases match the given constraints %s (the search locations have %s).\n\nTo see which modules require %s, and with which version constraints, run:\n  rig providers",
				p.ForDisplay(), cs, versionList(available), p.ForDisplay())}
		}
	}
	return selected, nil
}

// Fetched is a package found, and downloaded when remote, but not installed.
type Fetched struct {
	// Package is local: PackageUnpacked or PackageZip.
	Package Package
	// Hashes are the package's h1: hash (and zh: for a local archive),
	// plus the zh: hashes of every platform a registry signed.
	Hashes []string
	// Auth is what the checks of a downloaded package established.
	Auth Authentication
}

// Fetch finds the package of p at v for the installer's platform in the
// sources; a remote one is downloaded into dir (which the caller owns and
// removes) and checked. It installs nothing.
func (i *Installer) Fetch(ctx context.Context, p addrs.Provider, v Version, dir string) (Fetched, error) {
	pkg, err := i.findPackage(ctx, p, v, i.platform())
	if err != nil {
		return Fetched{}, err
	}
	switch pkg.Kind {
	case PackageUnpacked:
		h1, err := HashDir(pkg.Location)
		if err != nil {
			return Fetched{}, err
		}
		return Fetched{Package: pkg, Hashes: []string{h1}}, nil
	case PackageZip:
		h1, err := HashZip(pkg.Location)
		if err != nil {
			return Fetched{}, err
		}
		zh, err := HashZipLegacy(pkg.Location)
		if err != nil {
			return Fetched{}, err
		}
		return Fetched{Package: pkg, Hashes: []string{h1, zh}}, nil
	case PackageHTTP:
		local, auth, err := download(ctx, pkg, dir)
		if err != nil {
			return Fetched{}, err
		}
		h1, err := HashZip(local.Location)
		if err != nil {
			return Fetched{}, err
		}
		return Fetched{Package: local, Hashes: append([]string{h1}, auth.RegistryHashes...), Auth: auth}, nil
	}
	return Fetched{}, fmt.Errorf("package %s: unknown kind %d", pkg.Location, pkg.Kind)
}

// matchesAny reports whether the package with the given hashes matches a
// trusted hash. Only schemes the package has hashes for can be checked:
// an h1: or zh: of ours in the list matches; a list with none of our
// schemes does not.
func matchesAny(ours, trusted []string) bool {
	if len(trusted) == 0 {
		return true
	}
	for _, h := range ours {
		if containsString(trusted, h) {
			return true
		}
	}
	return false
}

func containsVersion(vs Versions, v Version) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

func versionList(vs Versions) string {
	vs = append(Versions(nil), vs...)
	vs.SortNewestFirst()
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, ", ")
}

func bulletList(items []string) string {
	var b strings.Builder
	for _, s := range items {
		b.WriteString("  - " + s + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// notFound is the diagnostic for a provider no source has: it names every
// location searched, and the layouts expected in a local mirror directory
// when one was searched.
func notFound(p addrs.Provider, platform Platform, searched []string, sources []SourceEntry) diag.Diagnostic {
	if len(searched) == 0 {
		return diag.Errorf("Failed to query available provider packages", "Could not retrieve the list of available versions for provider %s: no provider installation method in the CLI configuration includes it.", p.ForDisplay())
	}
	local := false
	for _, e := range sources {
		if _, ok := e.Source.(FilesystemMirror); ok && e.serves(p) {
			local = true
		}
	}
	if !local && len(searched) == 1 && strings.HasPrefix(searched[0], "provider registry ") {
		return diag.Errorf("Failed to query available provider packages",
			"Could not retrieve the list of available versions for provider %s: provider registry %s does not have a provider named %s\n\nIf you have just upgraded directly from Terraform v0.12 to a later version, or the provider is not published, check the provider's source address in required_providers.",
			p.ForDisplay(), p.Hostname, p)
	}
	detail := fmt.Sprintf("Could not retrieve the list of available versions for provider %s: provider %s was not found in any of the search locations\n\n%s", p.ForDisplay(), p, bulletList(searched))
	if local {
		detail += fmt.Sprintf("\n\nA local mirror directory holds a provider in either layout:\n"+
			"  %s/%s/%s/VERSION/%s/terraform-provider-%s_vVERSION   (unpacked)\n"+
			"  %s/%s/%s/terraform-provider-%s_VERSION_%s.zip   (packed)\n"+
			"Name another directory with -plugin-dir=DIR, or list installation methods (filesystem_mirror, network_mirror, direct) in a provider_installation block of the CLI configuration file (TF_CLI_CONFIG_FILE, ~/.terraformrc or ~/.tofurc).",
			p.Hostname, p.Namespace, p.Type, platform, p.Type,
			p.Hostname, p.Namespace, p.Type, p.Type, platform)
	}
	return diag.Errorf("Failed to query available provider packages", "%s", detail)
}

// availableVersions unions the versions of every source that serves p.
func (i *Installer) availableVersions(ctx context.Context, p addrs.Provider, platform Platform) (Versions, []string, error) {
	var out Versions
	var searched []string
	seen := map[Version]bool{}
	for _, e := range i.Sources {
		if !e.serves(p) {
			continue
		}
		searched = append(searched, e.Source.ForDisplay(p))
		vs, err := e.Source.AvailableVersions(ctx, p, platform)
		if err != nil {
			return nil, searched, err
		}
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, searched, nil
}

func (i *Installer) findPackage(ctx context.Context, p addrs.Provider, v Version, platform Platform) (Package, error) {
	for _, e := range i.Sources {
		if !e.serves(p) {
			continue
		}
		pkg, ok, err := e.Source.Package(ctx, p, v, platform)
		if err != nil {
			return Package{}, err
		}
		if ok {
			return pkg, nil
		}
	}
	return Package{}, fmt.Errorf("no source has a package for %s", platform)
}

// PackageDir returns the directory of p at v for platform under base
// (a target or cache directory), whether or not it exists.
func PackageDir(base string, p addrs.Provider, v Version, platform Platform) string {
	return filepath.Join(base, p.Hostname, p.Namespace, p.Type, v.String(), platform.String())
}

// packageDir returns the installed package directory under base, or "".
func (i *Installer) packageDir(base string, p addrs.Provider, v Version) string {
	dir := PackageDir(base, p, v, i.platform())
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	return ""
}

// installPackage puts pkg, a local package, into the target directory and
// returns its h1: hash, and the zh: hash of an archive ("" for a
// directory).
func (i *Installer) installPackage(pkg Package) (h1, zh string, err error) {
	target := PackageDir(i.TargetDir, pkg.Provider, pkg.Version, pkg.Platform)
	if err := os.RemoveAll(target); err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", "", err
	}
	switch pkg.Kind {
	case PackageUnpacked:
		src, err := filepath.Abs(pkg.Location)
		if err != nil {
			return "", "", err
		}
		if err := linkOrCopyDir(src, target); err != nil {
			return "", "", err
		}
	case PackageZip:
		if zh, err = HashZipLegacy(pkg.Location); err != nil {
			return "", "", err
		}
		if i.CacheDir != "" {
			cached := PackageDir(i.CacheDir, pkg.Provider, pkg.Version, pkg.Platform)
			want, err := HashZip(pkg.Location)
			if err != nil {
				return "", "", err
			}
			if got, err := HashDir(cached); err != nil || got != want {
				if err := unzipFresh(pkg.Location, cached); err != nil {
					return "", "", err
				}
			}
			if err := i.linkFromCache(pkg); err != nil {
				return "", "", err
			}
		} else if err := unzipFresh(pkg.Location, target); err != nil {
			return "", "", err
		}
	default:
		return "", "", fmt.Errorf("package %s: cannot install a package of kind %d", pkg.Location, pkg.Kind)
	}
	if _, ok := FindExecutable(target, pkg.Provider); !ok {
		return "", "", fmt.Errorf("the package %s has no executable named terraform-provider-%s*", pkg.Location, pkg.Provider.Type)
	}
	if h1, err = HashDir(target); err != nil {
		return "", "", err
	}
	return h1, zh, nil
}

// linkOrCopyDir makes target a symlink to the directory src, or a copy of
// it where symlinks are not possible.
func linkOrCopyDir(src, target string) error {
	if err := os.Symlink(src, target); err == nil {
		return nil
	}
	return copyDir(src, target)
}

func copyDir(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		return copyFile(path, to, info.Mode().Perm())
	})
}

func copyFile(from, to string, mode os.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// unzipFresh replaces dir with the content of the archive, keeping file
// modes (the executable bit) and refusing entries that leave dir.
func unzipFresh(archive, dir string) error {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return fmt.Errorf("open %s: %w", archive, err)
	}
	defer zr.Close()
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range zr.File {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("unpack %s: entry %q leaves the package directory", archive, f.Name)
		}
		to := filepath.Join(dir, name)
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := unzipFile(f, to); err != nil {
			return fmt.Errorf("unpack %s: %w", archive, err)
		}
	}
	return nil
}

func unzipFile(f *zip.File, to string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	mode := f.Mode().Perm()
	if mode == 0 {
		mode = 0o755
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Installed is a provider package found in the target directory.
type Installed struct {
	Provider addrs.Provider
	Version  Version
	// Executable is the provider's executable.
	Executable string
}

// VerifyInstalled finds the installed package of every lock under
// targetDir and checks it against the lock's hashes (hashing the packages
// at once: each is tens of megabytes). Providers that are
// missing or do not match are reported in one "Required plugins are not
// installed" diagnostic, as Terraform does; the others are returned.
func VerifyInstalled(targetDir string, locks *Locks, platform Platform) (map[addrs.Provider]Installed, diag.Diagnostics) {
	sorted := locks.Sorted()
	// problem[i] is what is wrong with the package of sorted[i], if anything.
	problem := make([]string, len(sorted))
	exes := make([]string, len(sorted))
	var wg sync.WaitGroup
	for i, lk := range sorted {
		dir := PackageDir(targetDir, lk.Provider, lk.Version, platform)
		if _, err := os.Stat(dir); err != nil {
			problem[i] = fmt.Sprintf("%s: there is no package for %s %s cached in %s", lk.Provider, lk.Provider, lk.Version, targetDir)
			continue
		}
		exe, ok := FindExecutable(dir, lk.Provider)
		if !ok {
			problem[i] = fmt.Sprintf("%s: the cached package for %s %s has no executable terraform-provider-%s*", lk.Provider, lk.Provider, lk.Version, lk.Provider.Type)
			continue
		}
		exes[i] = exe
		if hasScheme(lk.Hashes, hashSchemeH1) {
			wg.Go(func() {
				if h, err := HashDir(dir); err != nil || !containsString(lk.Hashes, h) {
					problem[i] = fmt.Sprintf("%s: the cached package for %s %s (in %s) does not match any of the checksums recorded in the dependency lock file", lk.Provider, lk.Provider, lk.Version, targetDir)
				}
			})
		}
	}
	wg.Wait()
	out := map[addrs.Provider]Installed{}
	var problems []string
	for i, lk := range sorted {
		if problem[i] != "" {
			problems = append(problems, problem[i])
			continue
		}
		out[lk.Provider] = Installed{Provider: lk.Provider, Version: lk.Version, Executable: exes[i]}
	}
	if len(problems) > 0 {
		return out, diag.Diagnostics{diag.Errorf("Required plugins are not installed",
			"The installed provider plugins are not consistent with the packages selected in the dependency lock file:\n%s\n\nrig uses external plugins to integrate with a variety of different infrastructure services. To install the plugins required for this configuration, run:\n  rig init",
			bulletList(problems))}
	}
	return out, nil
}
