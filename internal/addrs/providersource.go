package addrs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// ProviderSourceError is a provider source address that is not valid, as
// a diagnostic's summary and detail (the wording OpenTofu and Terraform
// use, so that init reports it as they do).
type ProviderSourceError struct {
	// Source is the address as given.
	Source  string
	Summary string
	Detail  string
}

// Error returns `invalid provider source "SOURCE": DETAIL`.
func (e *ProviderSourceError) Error() string {
	return fmt.Sprintf("invalid provider source %q: %s", e.Source, e.Detail)
}

// ParseProviderSource parses a source address as written in
// required_providers: "TYPE", "NAMESPACE/TYPE" or "HOST/NAMESPACE/TYPE".
// Without a hostname the provider is under DefaultProviderRegistryHost
// (see SourceNamesHost); without a namespace, under "hashicorp".
//
// Each part is checked and normalized as OpenTofu does: the namespace and
// type are DNS labels (letters, digits and dashes, lower-cased; no dots,
// no "--", no dash at either end), the type must not start with
// "terraform-" or "opentofu-", and the hostname is a valid host name in
// Unicode (stored in its ASCII form) with an optional port (":443", the
// default, is dropped). A problem is a *ProviderSourceError.
func ParseProviderSource(s string) (Provider, error) {
	parts := strings.Split(s, "/")
	if len(parts) > 3 || strings.Contains("/"+s+"/", "//") {
		return Provider{}, &ProviderSourceError{s, "Invalid provider source string",
			`The "source" attribute must be in the format "[hostname/][namespace/]name"`}
	}
	typ, err := providerPart(parts[len(parts)-1])
	if err != nil {
		return Provider{}, &ProviderSourceError{s, "Invalid provider type",
			fmt.Sprintf("Invalid provider type %q in source %q: %s.", parts[len(parts)-1], s, err)}
	}
	p := NewDefaultProvider(typ)
	if len(parts) == 1 {
		// A bare type is taken as it is (the name prefixes below are
		// checked only where the source names a namespace, as in OpenTofu).
		return p, nil
	}
	if len(parts) >= 2 {
		ns := parts[len(parts)-2]
		if ns == legacyProviderNamespace {
			p.Namespace = ns
		} else if p.Namespace, err = providerPart(ns); err != nil {
			return Provider{}, &ProviderSourceError{s, "Invalid provider namespace",
				fmt.Sprintf("Invalid provider namespace %q in source %q: %s.", ns, s, err)}
		}
	}
	if len(parts) == 3 {
		if p.Hostname, err = ParseRegistryHostname(parts[0]); err != nil {
			return Provider{}, &ProviderSourceError{s, "Invalid provider source hostname",
				fmt.Sprintf("Invalid provider source hostname %q in source %q: %s.", parts[0], s, err)}
		}
	}
	if p.Namespace == legacyProviderNamespace && p.Hostname != DefaultProviderRegistryHost && p.Hostname != OpenTofuRegistryHost {
		// Terraform 0.13 records such providers under its registry,
		// OpenTofu under its own.
		return Provider{}, &ProviderSourceError{s, "Invalid provider namespace",
			fmt.Sprintf("The legacy provider namespace %q can be used only with hostname %s or %s.", legacyProviderNamespace, DefaultProviderRegistryHost, OpenTofuRegistryHost)}
	}
	if err := checkTypePrefix(s, p); err != nil {
		return Provider{}, err
	}
	return p, nil
}

// legacyProviderNamespace is the namespace of the providers of Terraform
// 0.12 and before, kept only for the default registry host.
const legacyProviderNamespace = "-"

// checkTypePrefix refuses the type of p (parsed from source s) when it
// starts with "terraform-" or "opentofu-": redundant in a provider's name,
// and with "-provider-" after it, usually a repository's name written
// where the type belongs.
func checkTypePrefix(s string, p Provider) error {
	for _, tool := range []struct{ name, display, usage string }{{"terraform", "Terraform", "often"}, {"opentofu", "OpenTofu", "sometimes"}} {
		redundant, repository := tool.name+"-", tool.name+"-provider-"
		if !strings.HasPrefix(p.Type, redundant) {
			continue
		}
		if suggested := strings.TrimPrefix(p.Type, repository); suggested != p.Type {
			if _, err := providerPart(suggested); err == nil {
				fixed := p
				fixed.Type = suggested
				return &ProviderSourceError{s, "Invalid provider type",
					fmt.Sprintf("Provider source %q has a type with the prefix %q, which isn't valid. Although that prefix is %s used in the names of version control repositories for %s providers, provider source strings should not include it.\n\nDid you mean %q?",
						p.ForDisplay(), repository, tool.usage, tool.display, fixed.ForDisplay())}
			}
		}
		article := "a"
		if tool.display == "OpenTofu" {
			article = "an"
		}
		return &ProviderSourceError{s, "Invalid provider type",
			fmt.Sprintf("Provider source %q has a type with the prefix %q, which isn't allowed because it would be redundant to name %s %s provider with that prefix. If you are the author of this provider, rename it to not include the prefix.",
				p.String(), redundant, article, tool.display)}
	}
	return nil
}

// providerPart checks and normalizes a provider namespace or type: one DNS
// label, lower-cased.
func providerPart(given string) (string, error) {
	switch {
	case given == "":
		return "", errors.New("must have at least one character")
	case strings.Contains(given, "."):
		return "", errors.New("dots are not allowed")
	case strings.Contains(given, "--"):
		// Also keeps out the "xn--" of a punycode label.
		return "", errors.New("cannot use multiple consecutive dashes")
	}
	label, err := idna.Lookup.ToUnicode(given)
	if err != nil {
		return "", errors.New("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")
	}
	return label, nil
}

// ParseRegistryHostname checks the host name of a provider or module
// registry, with an optional port, and returns it as compared: in ASCII
// (punycode for a Unicode name), lower-cased, without the default port
// 443. Its rules are OpenTofu's: a Unicode name (not punycode), no empty
// label, a numeric port up to 65535.
func ParseRegistryHostname(given string) (string, error) {
	host, port, hasPort := strings.Cut(given, ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		switch {
		case err != nil && (strings.EqualFold(host, "http") || strings.EqualFold(host, "https")):
			return "", errors.New("need just a hostname and optional port number, not a full URL")
		case err != nil:
			return "", errors.New("port portion contains non-digit characters")
		case n > 65535:
			return "", errors.New("port number is greater than 65535")
		case n == 443:
			port = ""
		default:
			port = ":" + strconv.Itoa(n)
		}
	}
	if host == "" {
		return "", errors.New("empty string is not a valid hostname")
	}
	for _, label := range strings.Split(host, ".") {
		switch {
		case label == "":
			return "", errors.New("hostname contains empty label (two consecutive periods)")
		case strings.HasPrefix(label, "xn--"):
			return "", fmt.Errorf("hostname label %q specified in punycode format; service hostnames must be given in unicode", label)
		}
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", err
	}
	return ascii + port, nil
}
