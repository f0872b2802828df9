package getmodules

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// defaultHTTPClient is the client Install uses when Installer.HTTPClient
// is nil: proxies from the environment, the system's certificate
// authorities, and timeouts for connecting and waiting for headers (a
// large archive may take long to download, so there is no overall one).
func defaultHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		ForceAttemptHTTP2:     true,
	}}
}

// registryHost returns the host of the registry address src of module key:
// the one it names, else the default host the previous manifest records
// it under, else the one the manifest records the other registry modules
// under, else Installer.DefaultRegistryHost.
func (inst *installation) registryHost(key string, src Source) string {
	if src.Host != "" {
		return src.Host
	}
	if prev, ok := inst.old.Record(key); ok && src.Matches(prev.Source) {
		if p, err := ParseSource(prev.Source); err == nil && p.Kind == RegistrySource {
			return p.Host
		}
	}
	// The host the manifest records the other registry modules under,
	// when it records them under one default host only.
	seen := map[string]bool{}
	for _, r := range inst.old.Records {
		if p, err := ParseSource(r.Source); err == nil && p.Kind == RegistrySource && (p.Host == DefaultRegistryHost || p.Host == OpenTofuRegistryHost) {
			seen[p.Host] = true
		}
	}
	switch {
	case seen[OpenTofuRegistryHost] && !seen[DefaultRegistryHost]:
		return OpenTofuRegistryHost
	case seen[DefaultRegistryHost] && !seen[OpenTofuRegistryHost]:
		return DefaultRegistryHost
	case inst.DefaultRegistryHost != "":
		return inst.DefaultRegistryHost
	}
	return DefaultRegistryHost
}

// installRegistry installs the registry module key (src, its host set)
// into pkgDir and returns its directory and version: the previous
// installation when the manifest records src at a version the call still
// allows (and not Upgrade), else the newest allowed version the registry
// offers, fetched from the location the registry names for it.
func (inst *installation) installRegistry(call *config.ModuleCall, key string, src Source, pkgDir string) (dir, version string, ok bool) {
	rng := call.SourceRange
	constraintRange := rng
	if call.VersionRange != nil {
		constraintRange = *call.VersionRange
	}
	constraints, err := getproviders.ParseConstraints(call.Version)
	if err != nil {
		inst.diags = inst.diags.Append(diag.At(constraintRange, "Invalid version constraint", fmt.Sprintf(
			"Module %q: %s. A version constraint is a comma-separated list of conditions such as \">= 1.2.0, < 2.0.0\" or \"~> 1.2\".", key, err)))
		return "", "", false
	}
	if prev, ok := inst.old.Record(key); ok && !inst.Upgrade && src.Matches(prev.Source) && within(pkgDir, prev.Dir) {
		if v, err := getproviders.ParseVersion(prev.Version); err == nil && constraints.Allows(v) {
			if fi, err := os.Stat(pathIn(inst.workDir, prev.Dir)); err == nil && fi.IsDir() {
				return prev.Dir, prev.Version, true
			}
		}
	}

	module := src.Package().String()
	registryFailed := func(err error, what string) {
		summary, detail := "Error accessing remote module registry", fmt.Sprintf(
			"Failed to retrieve %s of module %s (module %q, %s) from %s: %s.", what, module, key, inst.declPos(call), src.Host, err)
		switch asRegistryError(err) {
		case registryNotFound:
			summary, detail = "Module not found", fmt.Sprintf(
				"The module registry at %s has no module %s (module %q, %s): %s.", src.Host, module, key, inst.declPos(call), err)
		case registryInvalid:
			summary = "Invalid response from remote module registry"
		}
		inst.diags = inst.diags.Append(diag.At(rng, summary, detail))
	}
	versions, bad, err := inst.remote.registryVersions(inst.ctx, src)
	if err != nil {
		registryFailed(err, "the available versions")
		return "", "", false
	}
	for _, b := range bad {
		inst.diags = inst.diags.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid response from remote module registry",
			Detail:  fmt.Sprintf("The registry at %s listed the invalid version %q of module %s, which rig ignored.", src.Host, b, module),
			Subject: rangePtr(rng)})
	}
	if len(versions) == 0 {
		inst.diags = inst.diags.Append(diag.At(rng, "Module has no versions", fmt.Sprintf(
			"Module %s (module %q, %s) has no versions available on %s.", module, key, inst.declPos(call), src.Host)))
		return "", "", false
	}
	var selected *getproviders.Version
	for i := range versions {
		// versions is sorted newest first; prereleases only when named exactly.
		if constraints.Allows(versions[i]) {
			selected = &versions[i]
			break
		}
	}
	if selected == nil {
		inst.diags = inst.diags.Append(diag.At(rng, "Unresolvable module version constraint", fmt.Sprintf(
			"There is no available version of module %s (module %q, %s) which matches the given version constraint %q. The available versions are %s.",
			module, key, inst.declPos(call), call.Version, listVersions(versions))))
		return "", "", false
	}
	location, err := inst.remote.registryLocation(inst.ctx, src, *selected)
	if err != nil {
		registryFailed(err, fmt.Sprintf("the download location of version %s", selected))
		return "", "", false
	}
	label := module + " " + selected.String()
	if location.direct {
		// The registry serves the package archive itself.
		ref := packageRef{addr: location.source, fetch: func(ctx context.Context, dest string) error {
			return inst.remote.fetchArchive(ctx, location.source, noArchive, dest)
		}}
		dir, ok = inst.download(call, key, label, ref, pkgDir, src.Subdir)
		return dir, selected.String(), ok
	}
	loc, err := ParseSource(location.source)
	if err == nil && loc.Kind != GitSource && loc.Kind != HTTPSource {
		err = fmt.Errorf("it is a %s, not a git or HTTP source", loc.Kind)
	}
	if err != nil {
		inst.diags = inst.diags.Append(diag.At(rng, "Invalid response from remote module registry", fmt.Sprintf(
			"The registry at %s named %q as the location of module %s %s (module %q, %s): %s.",
			src.Host, location.source, module, selected, key, inst.declPos(call), err)))
		return "", "", false
	}
	subdir := src.Subdir
	if loc.Subdir != "" {
		subdir = path.Join(loc.Subdir, src.Subdir)
	}
	dir, ok = inst.download(call, key, label, inst.packageRef(loc.Package()), pkgDir, subdir)
	if !ok {
		return "", "", false
	}
	return dir, selected.String(), true
}

// listVersions lists versions (newest first) for a message, at most 20.
func listVersions(vs getproviders.Versions) string {
	var b strings.Builder
	for i, v := range vs {
		if i == 20 {
			fmt.Fprintf(&b, " and %d older ones", len(vs)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}

func rangePtr(r hcl.Range) *hcl.Range { return &r }
