package getmodules

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
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
	// ("NAMESPACE/NAME/SYSTEM" or "HOST/NAMESPACE/NAME/SYSTEM"); not supported.
	RegistrySource
	// OtherSource is any other remote kind (http, s3, gcs, hg, the
	// github.com/… shorthand, an absolute path…); not supported.
	OtherSource
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

	// Subdir is the directory of the module inside a git repository or a
	// registry package ("modules/x"; "" for its root): cleaned, without
	// leading or trailing slashes.
	Subdir string

	// Raw is the address as written. For registry and other sources it is
	// the only field set besides Kind.
	Raw string
}

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
	}
	return s.Raw
}

// Package returns the address of the package a remote source lives in:
// the source without its subdirectory. For a local source it returns s.
func (s Source) Package() Source {
	if s.Kind == GitSource {
		s.Subdir = ""
	}
	return s
}

// supportedSources ends every error about a source rig cannot install.
const supportedSources = `rig installs modules from local paths (starting with "./" or "../") ` +
	`and from git repositories ("git::https://…", "git::ssh://…", "git::file://…" or "git@host:path").`

// ParseSource parses a module block's source argument.
//
// Local paths must start with "./" or "../" (or their backslash forms,
// normalized to forward slashes). Git sources are "git::" followed by an
// https, http, ssh, git or file URL, or the "user@host:path" shorthand
// (recorded as "git::ssh://user@host/path"); either may carry a
// subdirectory ("//modules/x", before the query) and the query parameters
// ref and depth.
//
// Registry addresses and other remote sources are recognised but not
// supported: ParseSource then returns a Source with Kind RegistrySource or
// OtherSource and Raw set, together with an error that says which sources
// rig supports. For a malformed address it returns the zero Source and an
// error.
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
		return Source{Kind: RegistrySource, Raw: s}, fmt.Errorf(
			"%q is a module registry address, which rig does not support: %s", s, supportedSources)
	}
	return Source{Kind: OtherSource, Raw: s}, fmt.Errorf("%s %s", otherSourceProblem(s), supportedSources)
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
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "/")
	switch len(parts) {
	case 4:
		host := parts[0]
		if host != "localhost" && !strings.ContainsAny(host, ".:") {
			return false
		}
		parts = parts[1:]
	case 3:
	default:
		return false
	}
	return registryName.MatchString(parts[0]) && registryName.MatchString(parts[1]) &&
		registrySystem.MatchString(parts[2])
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
