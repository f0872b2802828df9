package getproviders

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// NetworkMirror installs providers from a provider network mirror (the
// network_mirror installation method): under its base URL,
// HOST/NAMESPACE/TYPE/index.json lists the versions of a provider and
// HOST/NAMESPACE/TYPE/VERSION.json the archive of each platform, with the
// hashes the archive must match. `rig providers mirror` writes this
// layout. A provider under a default registry host that the mirror does not
// have is looked up under the other one, as in FilesystemMirror.
type NetworkMirror struct {
	// URL is the base URL, ending in a slash.
	URL    *url.URL
	Client *Client
}

var _ Source = NetworkMirror{}

// ForDisplay returns the base URL.
func (m NetworkMirror) ForDisplay(addrs.Provider) string { return m.URL.String() }

func (m NetworkMirror) providerURL(p addrs.Provider, file string) *url.URL {
	return m.URL.JoinPath(p.Hostname, p.Namespace, p.Type, file)
}

// lookup fetches FILE for p, falling back to the other default host on a
// 404; a 404 under both is (nil, nil).
func (m NetworkMirror) lookup(ctx context.Context, p addrs.Provider, file string, limit int64) ([]byte, *url.URL, error) {
	u := m.providerURL(p, file)
	body, err := m.Client.get(ctx, u.String(), "", limit)
	if IsNotFound(err) {
		if other, ok := otherDefaultHost(p); ok {
			u = m.providerURL(other, file)
			body, err = m.Client.get(ctx, u.String(), "", limit)
		}
	}
	if IsNotFound(err) {
		return nil, u, nil
	}
	if err != nil {
		return nil, u, fmt.Errorf("failed to query provider mirror %s for %s: %w", m.URL, p, err)
	}
	return body, u, nil
}

// AvailableVersions lists the versions index.json names, whatever their
// platforms.
func (m NetworkMirror) AvailableVersions(ctx context.Context, p addrs.Provider, _ Platform) (Versions, error) {
	body, u, err := m.lookup(ctx, p, "index.json", 8<<20)
	if err != nil || body == nil {
		return nil, err
	}
	var doc mirrorIndex
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("provider mirror %s returned an invalid index %s: %w", m.URL, u, err)
	}
	var out Versions
	for s := range doc.Versions {
		if v, err := ParseVersion(s); err == nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// Package returns the archive VERSION.json names for platform; ok is false
// when it names none.
func (m NetworkMirror) Package(ctx context.Context, p addrs.Provider, v Version, platform Platform) (Package, bool, error) {
	body, u, err := m.lookup(ctx, p, v.String()+".json", 8<<20)
	if err != nil || body == nil {
		return Package{}, false, err
	}
	var doc mirrorVersion
	if err := json.Unmarshal(body, &doc); err != nil {
		return Package{}, false, fmt.Errorf("provider mirror %s returned an invalid version description %s: %w", m.URL, u, err)
	}
	a, ok := doc.Archives[platform.String()]
	if !ok {
		return Package{}, false, nil
	}
	ref, err := u.Parse(a.URL)
	if err != nil || a.URL == "" {
		return Package{}, false, fmt.Errorf("provider mirror %s gives an invalid archive URL %q for %s %s on %s", m.URL, a.URL, p, v, platform)
	}
	mp := &mirrorPackage{client: m.Client, url: ref.String(), hashes: a.Hashes}
	return Package{Provider: p, Version: v, Platform: platform, Kind: PackageHTTP, Location: mp.url, Remote: mp}, true, nil
}

// mirrorPackage downloads an archive a network mirror names and checks it
// against the mirror's hashes.
type mirrorPackage struct {
	client *Client
	url    string
	hashes []string
}

// Download writes the archive to path; it must match one of the hashes the
// mirror lists (h1: or zh:) when it lists any rig can check.
func (mp *mirrorPackage) Download(ctx context.Context, to string) (Authentication, error) {
	sum, err := mp.client.download(ctx, mp.url, to)
	if err != nil {
		return Authentication{}, fmt.Errorf("failed to download %s: %w", mp.url, err)
	}
	var checkable []string
	for _, h := range mp.hashes {
		if strings.HasPrefix(h, hashSchemeH1) || strings.HasPrefix(h, hashSchemeZH) {
			checkable = append(checkable, h)
		}
	}
	if len(checkable) == 0 {
		return Authentication{Trust: Unauthenticated}, nil
	}
	h1, err := HashZip(to)
	if err != nil {
		return Authentication{}, err
	}
	zh := hashSchemeZH + hex.EncodeToString(sum[:])
	if containsString(checkable, h1) || containsString(checkable, zh) {
		return Authentication{Trust: VerifiedChecksum}, nil
	}
	return Authentication{}, fmt.Errorf("the downloaded package %s does not match any of the checksums the mirror lists for it (it has %s and %s; the mirror lists %s)", mp.url, h1, zh, strings.Join(checkable, ", "))
}
