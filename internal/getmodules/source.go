package getmodules

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// SourceKind is the kind of a module source address.
type SourceKind uint8

const (
	// InvalidSource is the zero kind: an address that could not be parsed.
	InvalidSource SourceKind = iota
	// LocalSource is a path relative to the calling module ("./x", "../x").
	LocalSource
	// GitSource is a git repository ("git::https://…", "git@host:path").
	GitSource
	// RegistrySource is a module registry address
	// ("NAMESPACE/NAME/SYSTEM" or "HOST/NAMESPACE/NAME/SYSTEM").
	RegistrySource
	// OtherSource is any other remote kind (s3, gcs, hg, the github.com/…
	// shorthand, an absolute path…); not supported.
	OtherSource
	// HTTPSource is an http or https URL: an archive (by its extension or
	// its archive query parameter), or a page that names the module's real
	// source in an X-Terraform-Get header or terraform-get meta tag.
	HTTPSource
)

// String returns the kind's name as used in messages ("local path").
func (k SourceKind) String() string {
	switch k {
	case InvalidSource:
		return "invalid source"
	case LocalSource:
		return "local path"
	case GitSource:
		return "git repository"
	case RegistrySource:
		return "module registry address"
	case OtherSource:
		return "remote source"
	case HTTPSource:
		return "HTTP URL"
	}
	return fmt.Sprintf("SourceKind(%d)", uint8(k))
}

// Source is a parsed module source address. It is a comparable value.
// Which fields are set depends on Kind.
type Source struct {
	Kind SourceKind

	// Path is a local source's path: cleaned, with forward slashes, starting
	// with "./" or "../" (".\modules\x" and "./modules//x/" are both
	// "./modules/x").
	Path string

	// Repo is a git source's repository URL as git clone takes it
	// ("https://h/r.git", "ssh://git@h/r.git", "file:///tmp/r.git"):
	// without the "git::" prefix, the subdirectory and the query.
	Repo string
	// Query is a git source's query string as written, without the "?";
	// Ref and Depth are its decoded parameters.
	Query string
	// Ref is the branch, tag or commit to check out ("" for the default branch).
	Ref string
	// Depth, when above zero, makes a shallow clone of that many commits.
	Depth int

	// URL is an HTTP source's URL, with its query (archive included) and
	// without the subdirectory.
	URL string

	// Host is a registry source's host, lowercase; "" when the address
	// names none (the default registry, DefaultRegistryHost unless the
	// installer chose OpenTofu's). Namespace, Name and System are the
	// other parts of a registry address as written.
	Host, Namespace, Name, System string

	// Subdir is the directory of the module inside a git repository, an
	// HTTP package or a registry package ("modules/x"; "" for its root):
	// cleaned, without leading or trailing slashes. It may hold the
	// wildcards of path.Match ("*" for an archive's only top directory).
	Subdir string

	// Raw is the address as written. For other sources it is the only
	// field set besides Kind.
	Raw string
}

// DefaultRegistryHost is the module registry a registry address without a
// host names, as Terraform reads it; OpenTofuRegistryHost is the one
// OpenTofu uses instead. The two serve the same modules.
const (
	DefaultRegistryHost  = "registry.terraform.io"
	OpenTofuRegistryHost = "registry.opentofu.org"
)

// String returns the normalized address, the form Terraform records in the
// module manifest: the cleaned path of a local source; for a git source
// "git::" + Repo, then "//" + Subdir, then "?" + Query; otherwise Raw.
func (s Source) String() string {
	switch s.Kind {
	case LocalSource:
		return s.Path
	case GitSource:
		var b strings.Builder
		b.WriteString("git::")
		b.WriteString(s.Repo)
		if s.Subdir != "" {
			b.WriteString("//")
			b.WriteString(s.Subdir)
		}
		if s.Query != "" {
			b.WriteString("?")
			b.WriteString(s.Query)
		}
		return b.String()
	case HTTPSource:
		base, query, _ := strings.Cut(s.URL, "?")
		if s.Subdir != "" && strings.HasSuffix(base, "/") {
			// "BASE//SUBDIR" would split at BASE's own last slash: write
			// the subdirectory after the query, where it was found.
			return base + "?" + query + "//" + s.Subdir
		}
		if s.Subdir != "" {
			base += "//" + s.Subdir
		}
		if query != "" {
			base += "?" + query
		}
		return base
	case RegistrySource:
		host := s.Host
		if host == "" {
			host = DefaultRegistryHost
		}
		str := host + "/" + s.Namespace + "/" + s.Name + "/" + s.System
		if s.Subdir != "" {
			str += "//" + s.Subdir
		}
		return str
	}
	return s.Raw
}

// Package returns the address of the package a remote source lives in:
// the source without its subdirectory. For a local source it returns s.
func (s Source) Package() Source {
	switch s.Kind {
	case GitSource, HTTPSource, RegistrySource:
		s.Subdir = ""
	}
	return s
}

// Matches reports whether recorded, a source address from a module
// manifest, is s. A registry address that names no host matches its
// package under either default registry host, so a working directory
// OpenTofu initialized (registry.opentofu.org) is as good as one
// Terraform initialized; OpenTofu and Terraform record such an address as
// the configuration writes it, without a host.
func (s Source) Matches(recorded string) bool {
	if s.String() == recorded {
		return true
	}
	if s.Kind != RegistrySource || (s.Host != "" && s.Host != DefaultRegistryHost && s.Host != OpenTofuRegistryHost) {
		return false
	}
	r, err := ParseSource(recorded)
	if err != nil || r.Kind != RegistrySource || (r.Host != "" && r.Host != DefaultRegistryHost && r.Host != OpenTofuRegistryHost) {
		return false
	}
	r.Host, s.Host = "", ""
	return r.String() == s.String()
}

// supportedSources ends every error about a source rig cannot install.
const supportedSources = `rig installs modules from local paths (starting with "./" or "../"), ` +
	`module registries ("NAMESPACE/NAME/SYSTEM" or "HOST/NAMESPACE/NAME/SYSTEM"), ` +
	`git repositories ("git::https://…", "git::ssh://…", "git::file://…" or "git@host:path") ` +
	`and HTTP(S) URLs ("https://…/module.zip", ".tar.gz", "?archive=zip").`

// ParseSource parses a module block's source argument.
//
// Local paths must start with "./" or "../" (or their backslash forms,
// normalized to forward slashes). Git sources are "git::" followed by an
// https, http, ssh, git or file URL, or the "user@host:path" shorthand
// (recorded as "git::ssh://user@host/path"); either may carry a
// subdirectory ("//modules/x", before the query) and the query parameters
// ref and depth. Registry addresses are [HOST/]NAMESPACE/NAME/SYSTEM with
// an optional "//SUBDIR"; HTTP sources are http:// or https:// URLs, with
// an optional "//SUBDIR" after the path.
//
// Other remote sources are recognised but not supported: ParseSource then
// returns a Source with Kind OtherSource and Raw set, together with an
// error that says which sources rig supports. For a malformed address it
// returns the zero Source and an error.
func ParseSource(s string) (Source, error) {
	if s == "" {
		return Source{}, errors.New("the module source address must not be empty")
	}
	if isLocalPath(s) {
		return parseLocal(s), nil
	}
	if strings.HasPrefix(s, "git::") || scpLike.MatchString(s) {
		return parseGit(s)
	}
	if isRegistryAddress(s) {
		return parseRegistry(s)
	}
	if host, ok := registryShapedHost(s); ok {
		// HOST/NAMESPACE/NAME/SYSTEM whose HOST is no host name: no
		// installation method takes it, as in OpenTofu.
		if _, err := addrs.ParseRegistryHostname(host); err != nil {
			return Source{}, fmt.Errorf("rig failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path", s, s)
		}
	}
	if strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") {
		return parseHTTP(s)
	}
	return Source{Kind: OtherSource, Raw: s}, fmt.Errorf("%s %s", otherSourceProblem(s), supportedSources)
}

// parseRegistry parses an address isRegistryAddress accepted.
func parseRegistry(s string) (Source, error) {
	pkg, subdir := s, ""
	if i := strings.Index(s, "//"); i >= 0 {
		pkg, subdir = s[:i], s[i+2:]
	}
	parts := strings.Split(pkg, "/")
	src := Source{Kind: RegistrySource, Raw: s}
	if len(parts) == 4 {
		// isRegistryAddress checked the host name; it is kept as written
		// (lower-cased), as the address's String gives it back.
		src.Host = strings.ToLower(parts[0])
		parts = parts[1:]
	}
	src.Namespace, src.Name, src.System = parts[0], parts[1], parts[2]
	clean, err := cleanSubdir(subdir)
	if err != nil {
		return Source{}, fmt.Errorf("invalid module registry address %q: %w", s, err)
	}
	src.Subdir = clean
	return src, nil
}

// parseHTTP parses an http:// or https:// URL source.
func parseHTTP(s string) (Source, error) {
	rest, subdir := splitURLSubdir(s)
	u, err := url.Parse(rest)
	if err != nil {
		return Source{}, fmt.Errorf("invalid HTTP source %q: %w", s, err)
	}
	if u.Host == "" {
		return Source{}, fmt.Errorf("invalid HTTP source %q: the URL has no host", s)
	}
	if u.User != nil {
		return Source{}, fmt.Errorf("invalid HTTP source %q: credentials in the URL are not supported (use a credentials block in the CLI configuration or a TF_TOKEN_ variable)", redactURL(u))
	}
	if a := u.Query().Get("archive"); a != "" && archiveFormatNamed(a) == noArchive && a != "false" {
		return Source{}, fmt.Errorf("invalid HTTP source %q: unsupported archive format %q (rig extracts zip, tar, tar.gz, tgz and tar.bz2)", s, a)
	}
	clean, err := cleanSubdir(subdir)
	if err != nil {
		return Source{}, fmt.Errorf("invalid HTTP source %q: %w", s, err)
	}
	if base, query, _ := strings.Cut(rest, "?"); clean != "" && strings.HasSuffix(base, "/") && strings.Contains(query, "//") {
		// No way to write this back that parses the same: the subdirectory
		// would go after the query, whose "//" would start it instead.
		return Source{}, fmt.Errorf("invalid HTTP source %q: a URL ending in a slash, with a subdirectory, cannot have \"//\" in its query", s)
	}
	return Source{Kind: HTTPSource, URL: rest, Subdir: clean, Raw: s}, nil
}

// splitURLSubdir splits "URL//SUBDIR" as go-getter does: the first "//"
// after the scheme's starts the subdirectory, even inside the query, and a
// query after the subdirectory belongs to the URL
// ("https://h/p?archive=zip//sub" and "https://h/p//sub?archive=zip" are
// both "https://h/p?archive=zip" and "sub").
func splitURLSubdir(s string) (u, subdir string) {
	offset := strings.Index(s, "://") + len("://")
	i := strings.Index(s[offset:], "//")
	if i < 0 {
		return s, ""
	}
	i += offset
	u, subdir = s[:i], s[i+2:]
	if q := strings.Index(subdir, "?"); q >= 0 {
		u += subdir[q:]
		subdir = subdir[:q]
	}
	return u, subdir
}

// cleanSubdir cleans the subdirectory part of a source address; one that
// leads outside of its package is an error.
func cleanSubdir(subdir string) (string, error) {
	if subdir == "" {
		return "", nil
	}
	clean := strings.TrimPrefix(path.Clean(subdir), "/")
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("the subdirectory %q leads outside of the package", subdir)
	}
	if clean == "." {
		return "", nil
	}
	return clean, nil
}

var localPrefixes = []string{"./", "../", `.\`, `..\`}

func isLocalPath(s string) bool {
	for _, p := range localPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func parseLocal(s string) Source {
	clean := path.Clean(strings.ReplaceAll(s, `\`, "/"))
	// Like Terraform: "./" stays in front of anything but "../…", so
	// "../" becomes "./..".
	if !strings.HasPrefix(clean, "../") {
		clean = "./" + clean
	}
	return Source{Kind: LocalSource, Path: clean, Raw: s}
}

// scpLike matches the "user@host:path" shorthand git accepts for ssh.
var scpLike = regexp.MustCompile(`^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+:[^/]`)

var gitSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git": true, "file": true}

func parseGit(s string) (Source, error) {
	rest := strings.TrimPrefix(s, "git::")
	if i := strings.Index(rest, "::"); i >= 0 && !strings.Contains(rest[:i], "/") {
		return Source{}, fmt.Errorf("invalid git source %q: a second source type prefix %q follows \"git::\"", s, rest[:i+2])
	}
	repo, subdir := splitSubdir(rest)
	var query string
	if i := strings.Index(repo, "?"); i >= 0 {
		repo, query = repo[:i], repo[i+1:]
	}
	src := Source{Kind: GitSource, Query: query, Raw: s}

	if m := scpLike.FindString(repo); m != "" && !strings.Contains(repo, "://") {
		at := strings.Index(repo, "@")
		colon := at + strings.Index(repo[at:], ":")
		repo = "ssh://" + repo[:colon] + "/" + repo[colon+1:]
	}
	u, err := url.Parse(repo)
	if err != nil {
		return Source{}, fmt.Errorf("invalid git source %q: %w", s, err)
	}
	switch {
	case u.Scheme == "":
		return Source{}, fmt.Errorf("invalid git source %q: the repository must be a URL with a scheme (https://, ssh://, file://) or user@host:path", s)
	case !gitSchemes[u.Scheme]:
		return Source{}, fmt.Errorf("invalid git source %q: rig clones git repositories over https, http, ssh, git and file URLs, not %q", s, u.Scheme)
	case u.Scheme == "file" && u.Path == "":
		return Source{}, fmt.Errorf("invalid git source %q: a file URL needs an absolute path (file:///path/to/repo.git)", s)
	case u.Scheme != "file" && u.Host == "":
		return Source{}, fmt.Errorf("invalid git source %q: the URL has no host", s)
	}
	src.Repo = repo

	if query != "" {
		values, err := url.ParseQuery(query)
		if err != nil {
			return Source{}, fmt.Errorf("invalid git source %q: query: %w", s, err)
		}
		for k, vs := range values {
			if len(vs) != 1 {
				return Source{}, fmt.Errorf("invalid git source %q: the query parameter %q is given %d times", s, k, len(vs))
			}
			switch k {
			case "ref":
				if vs[0] == "" {
					return Source{}, fmt.Errorf("invalid git source %q: ref must not be empty", s)
				}
				src.Ref = vs[0]
			case "depth":
				n, err := strconv.Atoi(vs[0])
				if err != nil || n < 1 {
					return Source{}, fmt.Errorf("invalid git source %q: depth must be a positive whole number, not %q", s, vs[0])
				}
				src.Depth = n
			default:
				return Source{}, fmt.Errorf("invalid git source %q: unsupported query parameter %q (rig supports ref and depth)", s, k)
			}
		}
	}

	if subdir != "" {
		clean := strings.TrimPrefix(path.Clean(subdir), "/")
		if clean == ".." || strings.HasPrefix(clean, "../") {
			return Source{}, fmt.Errorf("invalid git source %q: the subdirectory %q leads outside of the repository", s, subdir)
		}
		if clean != "." {
			src.Subdir = clean
		}
	}
	return src, nil
}

// splitSubdir splits "REPO//SUBDIR?QUERY" into "REPO?QUERY" and "SUBDIR".
// The "//" of a URL's scheme does not count, and a subdirectory can only
// come before the query.
func splitSubdir(s string) (pkg, subdir string) {
	stop := len(s)
	if i := strings.Index(s, "?"); i >= 0 {
		stop = i
	}
	offset := 0
	if i := strings.Index(s[:stop], "://"); i >= 0 {
		offset = i + len("://")
	}
	i := strings.Index(s[offset:stop], "//")
	if i < 0 {
		return s, ""
	}
	i += offset
	return s[:i] + s[stop:], s[i+2 : stop]
}

var (
	registryName   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	registrySystem = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
)

// isRegistryAddress reports whether s has the form of a module registry
// address: [HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR].
func isRegistryAddress(s string) bool {
	if host, ok := registryShapedHost(s); ok {
		_, err := addrs.ParseRegistryHostname(host)
		return err == nil
	}
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return false
	}
	return registryName.MatchString(parts[0]) && registryName.MatchString(parts[1]) &&
		registrySystem.MatchString(parts[2])
}

// registryShapedHost returns the HOST of s when s has the shape of a
// registry address with a host, HOST/NAMESPACE/NAME/SYSTEM[//SUBDIR]
// (HOST holding a dot or a colon, or localhost), whether or not HOST is a
// valid host name.
func registryShapedHost(s string) (string, bool) {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "/")
	switch len(parts) {
	case 4:
		host := parts[0]
		if host != "localhost" && !strings.ContainsAny(host, ".:") {
			return "", false
		}
		return host, registryName.MatchString(parts[1]) && registryName.MatchString(parts[2]) &&
			registrySystem.MatchString(parts[3])
	}
	return "", false
}

// otherSourceProblem says why s is not a source rig installs, with a hint
// for the shorthands that have a git equivalent.
func otherSourceProblem(s string) string {
	switch {
	case strings.HasPrefix(s, "/") || (len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/')):
		return fmt.Sprintf("%q is an absolute path, which rig does not support: a local module path must begin with \"./\" or \"../\" and is relative to the calling module's directory.", s)
	case s == "." || s == "..":
		return fmt.Sprintf("%q is not a module source: write a local path as \"./DIR\" or \"../DIR\".", s)
	case strings.HasPrefix(s, "github.com/") || strings.HasPrefix(s, "bitbucket.org/"):
		host, _, _ := strings.Cut(s, "/")
		return fmt.Sprintf("%q is a %s shorthand, which rig does not support; write it as a git source (\"git::https://%s/ORGANIZATION/REPOSITORY.git\").", s, host, host)
	}
	kind := "remote source"
	if i := strings.Index(s, "::"); i > 0 && !strings.Contains(s[:i], "/") {
		kind = fmt.Sprintf("%q source", s[:i])
	} else if u, err := url.Parse(s); err == nil && u.Scheme != "" {
		kind = fmt.Sprintf("%q URL", u.Scheme)
	}
	return fmt.Sprintf("%q is a %s, which rig does not support:", s, kind)
}
