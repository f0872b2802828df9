package getproviders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// RegistrySource installs providers from the provider registry of their
// host (the direct installation method), speaking the provider registry
// protocol: the host's providers.v1 service lists a provider's versions
// (NAMESPACE/TYPE/versions) and describes each version's package for a
// platform (NAMESPACE/TYPE/VERSION/download/OS/ARCH). The package is
// downloaded and checked against the registry's SHA256SUMS, whose OpenPGP
// signature is verified with the keys the registry gives.
type RegistrySource struct {
	Client *Client
}

var _ Source = RegistrySource{}

// ForDisplay names the registry of p's host.
func (r RegistrySource) ForDisplay(p addrs.Provider) string {
	return "provider registry " + p.Hostname
}

// registryVersions is the answer of NAMESPACE/TYPE/versions.
type registryVersions struct {
	Versions []struct {
		Version   string   `json:"version"`
		Protocols []string `json:"protocols"`
		Platforms []struct {
			OS   string `json:"os"`
			Arch string `json:"arch"`
		} `json:"platforms"`
	} `json:"versions"`
}

// registryDownload is the answer of NAMESPACE/TYPE/VERSION/download/OS/ARCH.
type registryDownload struct {
	Protocols           []string `json:"protocols"`
	OS                  string   `json:"os"`
	Arch                string   `json:"arch"`
	Filename            string   `json:"filename"`
	DownloadURL         string   `json:"download_url"`
	SHASumsURL          string   `json:"shasums_url"`
	SHASumsSignatureURL string   `json:"shasums_signature_url"`
	SHASum              string   `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []SigningKey `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

// supportedProtocol reports whether a version speaking protocols (major.minor
// strings) can be used by rig, which speaks plugin protocols 5 and 6. A
// version that names no protocol is assumed usable.
func supportedProtocol(protocols []string) bool {
	if len(protocols) == 0 {
		return true
	}
	for _, p := range protocols {
		major, _, _ := strings.Cut(p, ".")
		if major == "5" || major == "6" {
			return true
		}
	}
	return false
}

func (r RegistrySource) base(ctx context.Context, p addrs.Provider) (*url.URL, error) {
	return r.Client.ServiceURL(ctx, p.Hostname, "providers.v1")
}

// AvailableVersions lists every version of p the registry has that speaks
// a protocol rig does (whatever its platforms: a version without a package
// for platform fails when installed, naming the platforms it has). A
// registry that does not know p has none.
func (r RegistrySource) AvailableVersions(ctx context.Context, p addrs.Provider, _ Platform) (Versions, error) {
	base, err := r.base(ctx, p)
	if err != nil {
		return nil, err
	}
	u := base.JoinPath(p.Namespace, p.Type, "versions")
	body, err := r.Client.get(ctx, u.String(), p.Hostname, 8<<20)
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to query provider registry %s for %s: %w", p.Hostname, p, err)
	}
	var doc registryVersions
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("provider registry %s returned an invalid list of versions for %s: %w", p.Hostname, p, err)
	}
	var out Versions
	for _, v := range doc.Versions {
		parsed, err := ParseVersion(v.Version)
		if err != nil || !supportedProtocol(v.Protocols) {
			continue
		}
		out = append(out, parsed)
	}
	return out, nil
}

// Package asks the registry for the package of p at v for platform. A
// registry without that version or platform is an error naming what it
// has, not a package another source may have.
func (r RegistrySource) Package(ctx context.Context, p addrs.Provider, v Version, platform Platform) (Package, bool, error) {
	base, err := r.base(ctx, p)
	if err != nil {
		return Package{}, false, err
	}
	u := base.JoinPath(p.Namespace, p.Type, v.String(), "download", platform.OS, platform.Arch)
	body, err := r.Client.get(ctx, u.String(), p.Hostname, 1<<20)
	if IsNotFound(err) {
		return Package{}, false, r.missingPlatform(ctx, p, v, platform)
	}
	if err != nil {
		return Package{}, false, fmt.Errorf("failed to query provider registry %s for %s %s: %w", p.Hostname, p, v, err)
	}
	var doc registryDownload
	if err := json.Unmarshal(body, &doc); err != nil {
		return Package{}, false, fmt.Errorf("provider registry %s returned an invalid package description for %s %s on %s: %w", p.Hostname, p, v, platform, err)
	}
	if doc.DownloadURL == "" || doc.SHASumsURL == "" || doc.SHASumsSignatureURL == "" || doc.Filename == "" {
		return Package{}, false, fmt.Errorf("provider registry %s returned an incomplete package description for %s %s on %s (it needs filename, download_url, shasums_url and shasums_signature_url)", p.Hostname, p, v, platform)
	}
	var sum [sha256.Size]byte
	if n, err := hex.Decode(sum[:], []byte(doc.SHASum)); err != nil || n != sha256.Size {
		return Package{}, false, fmt.Errorf("provider registry %s returned an invalid shasum %q for %s %s on %s", p.Hostname, doc.SHASum, p, v, platform)
	}
	if !supportedProtocol(doc.Protocols) {
		return Package{}, false, fmt.Errorf("provider %s %s speaks plugin protocol %s, which rig does not support (it speaks 5 and 6)", p, v, strings.Join(doc.Protocols, ", "))
	}
	resolve := func(s string) (string, error) {
		ref, err := u.Parse(s)
		if err != nil {
			return "", fmt.Errorf("provider registry %s returned an invalid URL %q for %s %s", p.Hostname, s, p, v)
		}
		return ref.String(), nil
	}
	rp := &registryPackage{client: r.Client, host: p.Hostname, filename: doc.Filename, sum: sum, keys: doc.SigningKeys.GPGPublicKeys}
	for _, f := range []struct {
		to  *string
		raw string
	}{{&rp.url, doc.DownloadURL}, {&rp.sumsURL, doc.SHASumsURL}, {&rp.sigURL, doc.SHASumsSignatureURL}} {
		if *f.to, err = resolve(f.raw); err != nil {
			return Package{}, false, err
		}
	}
	return Package{Provider: p, Version: v, Platform: platform, Kind: PackageHTTP, Location: rp.url, Remote: rp}, true, nil
}

// missingPlatform is the error for a version the registry has no package of
// for platform: it names the platforms it has, or says the version is
// unknown.
func (r RegistrySource) missingPlatform(ctx context.Context, p addrs.Provider, v Version, platform Platform) error {
	base, err := r.base(ctx, p)
	if err != nil {
		return err
	}
	body, err := r.Client.get(ctx, base.JoinPath(p.Namespace, p.Type, "versions").String(), p.Hostname, 8<<20)
	var doc registryVersions
	if err == nil && json.Unmarshal(body, &doc) == nil {
		for _, rv := range doc.Versions {
			if pv, err := ParseVersion(rv.Version); err != nil || pv != v {
				continue
			}
			var have []string
			for _, pl := range rv.Platforms {
				have = append(have, pl.OS+"_"+pl.Arch)
			}
			sort.Strings(have)
			return fmt.Errorf("provider %s v%s does not have a package available for your current platform, %s (provider registry %s has it for %s)", p.ForDisplay(), v, platform, p.Hostname, strings.Join(have, ", "))
		}
	}
	return fmt.Errorf("provider registry %s does not have %s v%s for %s", p.Hostname, p, v, platform)
}

// registryPackage downloads and authenticates a package a registry
// described.
type registryPackage struct {
	client               *Client
	host                 string
	filename             string
	url, sumsURL, sigURL string
	sum                  [sha256.Size]byte
	keys                 []SigningKey
}

// Download writes the archive to path, then checks it: its SHA-256 must be
// the registry's shasum and the one SHA256SUMS lists for the file name,
// and SHA256SUMS must carry a valid signature by one of the registry's
// keys. A registry that offers no key leaves the signature unchecked
// (SigningSkipped), as OpenTofu does.
func (rp *registryPackage) Download(ctx context.Context, to string) (Authentication, error) {
	got, err := rp.client.download(ctx, rp.url, to)
	if err != nil {
		return Authentication{}, fmt.Errorf("failed to download %s: %w", rp.filename, err)
	}
	if got != rp.sum {
		return Authentication{}, fmt.Errorf("the downloaded package %s (%s) has SHA-256 %x, but provider registry %s gives %x", rp.filename, rp.url, got, rp.host, rp.sum)
	}
	sums, err := rp.client.get(ctx, rp.sumsURL, "", 1<<20)
	if err != nil {
		return Authentication{}, fmt.Errorf("failed to download the checksums file %s: %w", path.Base(rp.sumsURL), err)
	}
	parsed, err := parseSHA256Sums(sums)
	if err != nil {
		return Authentication{}, fmt.Errorf("the checksums file %s is invalid: %w", rp.sumsURL, err)
	}
	listed, ok := parsed[rp.filename]
	if !ok {
		return Authentication{}, fmt.Errorf("the checksums file %s lists no SHA-256 for %s", rp.sumsURL, rp.filename)
	}
	if listed != got {
		return Authentication{}, fmt.Errorf("the downloaded package %s has SHA-256 %x, but the checksums file %s lists %x for it", rp.filename, got, rp.sumsURL, listed)
	}
	if len(rp.keys) == 0 {
		return Authentication{Trust: SigningSkipped, RegistryHashes: zhHashes(parsed)}, nil
	}
	sig, err := rp.client.get(ctx, rp.sigURL, "", 1<<20)
	if err != nil {
		return Authentication{}, fmt.Errorf("failed to download the signature %s: %w", path.Base(rp.sigURL), err)
	}
	auth, err := checkSignature(rp.sumsURL, sums, sig, rp.keys)
	if err != nil {
		return Authentication{}, err
	}
	auth.RegistryHashes = zhHashes(parsed)
	return auth, nil
}
