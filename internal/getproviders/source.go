package getproviders

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// Platform is an operating system and architecture, "linux_amd64".
type Platform struct {
	OS, Arch string
}

// CurrentPlatform is the platform rig runs on.
var CurrentPlatform = Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}

// String returns "OS_ARCH".
func (p Platform) String() string { return p.OS + "_" + p.Arch }

// PackageKind says how a package is stored.
type PackageKind uint8

const (
	// PackageUnpacked is an unpacked package directory holding the executable.
	PackageUnpacked PackageKind = iota + 1
	// PackageZip is a zip archive holding the executable.
	PackageZip
	// PackageHTTP is a zip archive to download first (Package.Remote).
	PackageHTTP
)

// Package is one installable provider package.
type Package struct {
	Provider addrs.Provider
	Version  Version
	Platform Platform
	Kind     PackageKind
	// Location is the package directory or archive path, or the URL of a
	// PackageHTTP archive.
	Location string
	// Remote downloads and authenticates a PackageHTTP archive; nil for
	// the other kinds.
	Remote RemotePackage
}

// RemotePackage is an archive a network source described.
type RemotePackage interface {
	// Download writes the archive to the file to (created or truncated)
	// and checks it as its source requires, returning what the checks
	// established. An archive that fails a check is an error naming the
	// file that did not match.
	Download(ctx context.Context, to string) (Authentication, error)
}

// Source lists and locates provider packages: FilesystemMirror,
// NetworkMirror and RegistrySource are the three kinds.
type Source interface {
	// AvailableVersions returns the versions of p the source has (in any
	// order), or none. A filesystem mirror lists those it has for
	// platform; a network source lists every version, whatever its
	// platforms.
	AvailableVersions(ctx context.Context, p addrs.Provider, platform Platform) (Versions, error)
	// Package returns the package of p at v for platform; ok is false when
	// the source does not have it.
	Package(ctx context.Context, p addrs.Provider, v Version, platform Platform) (pkg Package, ok bool, err error)
	// ForDisplay names the source of p in messages.
	ForDisplay(p addrs.Provider) string
}

// FilesystemMirror is a local directory of provider packages in either
// layout Terraform reads:
//
//	HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE*   (unpacked)
//	HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip (packed)
//
// A provider under a default registry host that the mirror does not hold
// under that host is looked up under the other one (a mirror laid out for
// Terraform serves OpenTofu's addresses and the other way round); the
// packages found still name the provider asked for.
//
// A missing directory is an empty mirror.
type FilesystemMirror struct {
	Dir string
}

var _ Source = FilesystemMirror{}

// ForDisplay returns the directory.
func (m FilesystemMirror) ForDisplay(addrs.Provider) string { return m.Dir }

func (m FilesystemMirror) providerDir(p addrs.Provider) string {
	return filepath.Join(m.Dir, p.Hostname, p.Namespace, p.Type)
}

// packages returns every package of p for platform in the mirror, the
// unpacked one first where both layouts hold a version.
func (m FilesystemMirror) packages(p addrs.Provider, platform Platform) ([]Package, error) {
	out, err := m.packagesIn(m.providerDir(p), p, platform)
	if err != nil || len(out) > 0 {
		return out, err
	}
	if other, ok := otherDefaultHost(p); ok {
		return m.packagesIn(m.providerDir(other), p, platform)
	}
	return nil, nil
}

// packagesIn returns the packages of p for platform in dir, a mirror's
// HOST/NAMESPACE/TYPE directory.
func (m FilesystemMirror) packagesIn(dir string, p addrs.Provider, platform Platform) ([]Package, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Package
	zipPrefix := "terraform-provider-" + p.Type + "_"
	zipSuffix := "_" + platform.String() + ".zip"
	for _, e := range entries {
		name := e.Name()
		if v, err := ParseVersion(name); err == nil {
			pkgDir := filepath.Join(dir, name, platform.String())
			if st, err := os.Stat(pkgDir); err == nil && st.IsDir() {
				out = append(out, Package{Provider: p, Version: v, Platform: platform, Kind: PackageUnpacked, Location: pkgDir})
			}
			continue
		}
		if strings.HasPrefix(name, zipPrefix) && strings.HasSuffix(name, zipSuffix) {
			vs := strings.TrimSuffix(strings.TrimPrefix(name, zipPrefix), zipSuffix)
			if v, err := ParseVersion(vs); err == nil {
				out = append(out, Package{Provider: p, Version: v, Platform: platform, Kind: PackageZip, Location: filepath.Join(dir, name)})
			}
		}
	}
	return out, nil
}

// AvailableVersions lists the versions present for platform.
func (m FilesystemMirror) AvailableVersions(_ context.Context, p addrs.Provider, platform Platform) (Versions, error) {
	pkgs, err := m.packages(p, platform)
	if err != nil {
		return nil, err
	}
	var out Versions
	seen := map[Version]bool{}
	for _, pkg := range pkgs {
		if !seen[pkg.Version] {
			seen[pkg.Version] = true
			out = append(out, pkg.Version)
		}
	}
	return out, nil
}

// Package returns the package of p at v, preferring the unpacked layout.
func (m FilesystemMirror) Package(_ context.Context, p addrs.Provider, v Version, platform Platform) (Package, bool, error) {
	pkgs, err := m.packages(p, platform)
	if err != nil {
		return Package{}, false, err
	}
	var found *Package
	for i := range pkgs {
		if pkgs[i].Version == v && (found == nil || pkgs[i].Kind == PackageUnpacked) {
			found = &pkgs[i]
		}
	}
	if found == nil {
		return Package{}, false, nil
	}
	return *found, true, nil
}

// FindExecutable returns the provider executable in an unpacked package
// directory: the first regular file named terraform-provider-TYPE or
// terraform-provider-TYPE_* (terraform-provider-null_v3.2.4_x5).
func FindExecutable(dir string, p addrs.Provider) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	base := "terraform-provider-" + p.Type
	for _, e := range entries {
		name := e.Name()
		if name != base && name != base+".exe" && !strings.HasPrefix(name, base+"_") {
			continue
		}
		path := filepath.Join(dir, name)
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return path, true
		}
	}
	return "", false
}
