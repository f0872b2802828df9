package getmodules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/parallel"
)

// registryError is a failure to talk to a module registry; Kind says
// which, for the diagnostic's summary.
type registryError struct {
	kind registryProblem
	err  error
}

type registryProblem uint8

const (
	// registryUnreachable: service discovery or the request failed.
	registryUnreachable registryProblem = iota
	// registryNotFound: the registry does not know the module.
	registryNotFound
	// registryInvalid: the registry's answer could not be understood.
	registryInvalid
)

func (e *registryError) Error() string { return e.err.Error() }
func (e *registryError) Unwrap() error { return e.err }

// maxRegistryResponse bounds the JSON documents read from a registry.
const maxRegistryResponse = 4 << 20

// modulesBase returns the base URL of host's module registry (modules.v1
// in https://HOST/.well-known/terraform.json), with a trailing slash.
func (r *remote) modulesBase(ctx context.Context, host string) (*url.URL, error) {
	if base, ok := r.services[host]; ok {
		return base, nil
	}
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	resp, err := r.registryGet(ctx, disco.String(), http.Header{"Accept": {"application/json"}})
	if err != nil {
		return nil, &registryError{registryUnreachable, fmt.Errorf("service discovery: %w", err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &registryError{registryUnreachable, fmt.Errorf("service discovery: GET %s: %s", disco, resp.Status)}
	}
	var services map[string]json.RawMessage
	if err := decodeJSON(resp.Body, &services); err != nil {
		return nil, &registryError{registryInvalid, fmt.Errorf("service discovery: %s: %w", disco, err)}
	}
	raw, ok := services["modules.v1"]
	if !ok {
		return nil, &registryError{registryInvalid, fmt.Errorf("host %s does not offer a module registry (no modules.v1 in %s)", host, disco)}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, &registryError{registryInvalid, fmt.Errorf("service discovery: %s: modules.v1 is not a string", disco)}
	}
	ref, err := url.Parse(s)
	if err != nil {
		return nil, &registryError{registryInvalid, fmt.Errorf("service discovery: %s: modules.v1: %w", disco, err)}
	}
	base := disco.ResolveReference(ref)
	if base.Scheme != "https" && base.Scheme != "http" {
		return nil, &registryError{registryInvalid, fmt.Errorf("service discovery: %s: modules.v1 %q is not an http or https URL", disco, s)}
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	if r.services == nil {
		r.services = map[string]*url.URL{}
	}
	r.services[host] = base
	return base, nil
}

// registryGet is get for a registry's small JSON documents: each try is
// bounded by r.timeout, its answer read whole (at most
// maxRegistryResponse and one byte, enough for decodeJSON to tell it is too
// large), and a try that fails to connect or is answered 429 or 5xx is
// made again up to r.retries times, as Terraform's and OpenTofu's registry
// clients do. The last answer is returned, its body in memory.
func (r *remote) registryGet(ctx context.Context, rawURL string, header http.Header) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := r.registryTry(ctx, rawURL, header)
		transient := err != nil || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !transient || attempt >= r.retries || ctx.Err() != nil {
			return resp, err
		}
		wait := time.Second << attempt
		if r.backoff != nil {
			wait = r.backoff(attempt + 1)
		} else if wait > 10*time.Second || wait <= 0 {
			wait = 10 * time.Second
		}
		if err := parallel.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// registryTry makes one try of registryGet.
func (r *remote) registryTry(ctx context.Context, rawURL string, header http.Header) (*http.Response, error) {
	tryCtx := ctx
	if r.timeout > 0 {
		var cancel context.CancelFunc
		tryCtx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}
	timedOut := func(err error) error {
		if ctx.Err() == nil && errors.Is(tryCtx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("GET %s: no complete answer within %s (TF_REGISTRY_CLIENT_TIMEOUT)", rawURL, r.timeout)
		}
		return err
	}
	resp, err := r.get(tryCtx, rawURL, header)
	if err != nil {
		return nil, timedOut(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRegistryResponse+1))
	if err != nil {
		return nil, timedOut(fmt.Errorf("GET %s: reading the answer: %w", rawURL, err))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func decodeJSON(body io.Reader, v any) error {
	data, err := io.ReadAll(io.LimitReader(body, maxRegistryResponse+1))
	if err != nil {
		return err
	}
	if len(data) > maxRegistryResponse {
		return fmt.Errorf("the answer is larger than %d bytes", maxRegistryResponse)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return nil
}

// endpoint returns base joined with the module's path and more parts.
func endpoint(base *url.URL, src Source, more ...string) *url.URL {
	parts := append([]string{src.Namespace, src.Name, src.System}, more...)
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	ref, _ := url.Parse(path.Join(parts...))
	return base.ResolveReference(ref)
}

// registryVersions lists the versions a registry offers of the module src
// (whose Host is set). Versions that do not parse are returned apart, as
// strings, for a warning.
func (r *remote) registryVersions(ctx context.Context, src Source) (getproviders.Versions, []string, error) {
	base, err := r.modulesBase(ctx, src.Host)
	if err != nil {
		return nil, nil, err
	}
	u := endpoint(base, src, "versions")
	resp, err := r.registryGet(ctx, u.String(), http.Header{"Accept": {"application/json"}})
	if err != nil {
		return nil, nil, &registryError{registryUnreachable, err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, nil, &registryError{registryNotFound, fmt.Errorf("GET %s: %s", u, resp.Status)}
	case resp.StatusCode != http.StatusOK:
		return nil, nil, &registryError{registryUnreachable, fmt.Errorf("GET %s: %s", u, resp.Status)}
	}
	var body struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := decodeJSON(resp.Body, &body); err != nil {
		return nil, nil, &registryError{registryInvalid, fmt.Errorf("GET %s: %w", u, err)}
	}
	if len(body.Modules) == 0 {
		return nil, nil, &registryError{registryInvalid, fmt.Errorf("GET %s: the answer lists no module", u)}
	}
	var vs getproviders.Versions
	var bad []string
	for _, v := range body.Modules[0].Versions {
		pv, err := getproviders.ParseVersion(v.Version)
		if err != nil {
			bad = append(bad, v.Version)
			continue
		}
		vs = append(vs, pv)
	}
	vs.SortNewestFirst()
	return vs, bad, nil
}

// packageLocation is where a registry says a module version is.
type packageLocation struct {
	// source is a git or HTTP source address, or with direct the URL of
	// an archive the registry serves itself (OpenTofu's direct
	// locations: the body's use_registry_credentials is set).
	source string
	direct bool
}

// registryLocation asks the registry where version v of the module src is
// downloaded from: the X-Terraform-Get header, else the JSON body's
// location (an OpenTofu direct location when the body says
// use_registry_credentials). A relative URL is resolved against the
// download endpoint.
func (r *remote) registryLocation(ctx context.Context, src Source, v getproviders.Version) (packageLocation, error) {
	base, err := r.modulesBase(ctx, src.Host)
	if err != nil {
		return packageLocation{}, err
	}
	u := endpoint(base, src, v.String(), "download")
	resp, err := r.registryGet(ctx, u.String(), http.Header{"Accept": {"application/json"}})
	if err != nil {
		return packageLocation{}, &registryError{registryUnreachable, err}
	}
	defer resp.Body.Close()
	var location string
	switch resp.StatusCode {
	case http.StatusOK:
		var body struct {
			Location               string `json:"location"`
			UseRegistryCredentials *bool  `json:"use_registry_credentials"`
		}
		err := decodeJSON(resp.Body, &body)
		if header := resp.Header.Get("X-Terraform-Get"); header != "" && body.UseRegistryCredentials == nil {
			// Like Terraform, the header first, whatever the body holds.
			location = header
			break
		}
		if err != nil {
			return packageLocation{}, &registryError{registryInvalid, fmt.Errorf("GET %s: %w", u, err)}
		}
		if body.UseRegistryCredentials != nil {
			ref, err := url.Parse(body.Location)
			if err != nil || body.Location == "" {
				return packageLocation{}, &registryError{registryInvalid, fmt.Errorf("GET %s: invalid package URL %q", u, body.Location)}
			}
			return packageLocation{source: u.ResolveReference(ref).String(), direct: true}, nil
		}
		location = body.Location
	case http.StatusNoContent:
		location = resp.Header.Get("X-Terraform-Get")
	case http.StatusNotFound:
		return packageLocation{}, &registryError{registryNotFound, fmt.Errorf("GET %s: %s", u, resp.Status)}
	default:
		return packageLocation{}, &registryError{registryUnreachable, fmt.Errorf("GET %s: %s", u, resp.Status)}
	}
	if location == "" {
		return packageLocation{}, &registryError{registryInvalid, fmt.Errorf("GET %s: the registry named no download location (no location in the body, no X-Terraform-Get header)", u)}
	}
	loc, err := resolveLocation(location, u)
	if err != nil {
		return packageLocation{}, &registryError{registryInvalid, err}
	}
	return packageLocation{source: loc}, nil
}

// asRegistryError returns err's registry problem, and registryUnreachable
// for any other error.
func asRegistryError(err error) registryProblem {
	var re *registryError
	if errors.As(err, &re) {
		return re.kind
	}
	return registryUnreachable
}
