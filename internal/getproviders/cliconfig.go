package getproviders

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	hcl1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/token"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// Pattern matches provider addresses; any part may be "*".
type Pattern struct {
	Hostname, Namespace, Type string
}

// ParsePattern parses "TYPE", "NAMESPACE/TYPE" or "HOST/NAMESPACE/TYPE",
// where any part may be "*" ("hashicorp/*", "*/*").
func ParsePattern(s string) (Pattern, error) {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			return Pattern{}, fmt.Errorf("invalid provider address pattern %q", s)
		}
	}
	switch len(parts) {
	case 1:
		return Pattern{addrs.DefaultProviderRegistryHost, "hashicorp", strings.ToLower(parts[0])}, nil
	case 2:
		return Pattern{addrs.DefaultProviderRegistryHost, strings.ToLower(parts[0]), strings.ToLower(parts[1])}, nil
	case 3:
		return Pattern{strings.ToLower(parts[0]), strings.ToLower(parts[1]), strings.ToLower(parts[2])}, nil
	}
	return Pattern{}, fmt.Errorf("invalid provider address pattern %q: want [HOSTNAME/]NAMESPACE/TYPE", s)
}

// Matches reports whether p matches the pattern. A pattern under either
// default registry host matches a provider under either (the same
// provider, see addrs.Provider.SameAs), so "hashicorp/*" in a CLI
// configuration written for Terraform or for OpenTofu means the same.
func (pt Pattern) Matches(p addrs.Provider) bool {
	m := func(pat, s string) bool { return pat == "*" || pat == s }
	host := m(pt.Hostname, p.Hostname) || (addrs.IsDefaultRegistryHost(pt.Hostname) && addrs.IsDefaultRegistryHost(p.Hostname))
	return host && m(pt.Namespace, p.Namespace) && m(pt.Type, p.Type)
}

func anyMatch(pts []Pattern, p addrs.Provider) bool {
	for _, pt := range pts {
		if pt.Matches(p) {
			return true
		}
	}
	return false
}

// CLIConfig is what rig reads from a Terraform/OpenTofu CLI configuration
// file about providers.
type CLIConfig struct {
	// Path is the file read, "" when there was none.
	Path string
	// PluginCacheDir is plugin_cache_dir (or TF_PLUGIN_CACHE_DIR), "" when unset.
	PluginCacheDir string
	// cacheDirProblem is the summary of the error about a PluginCacheDir
	// that cannot be opened, "" when there is none.
	cacheDirProblem string
	// Installation is the provider_installation block; nil when absent,
	// which means the implied local mirror directories.
	Installation []InstallMethod
	// DevOverrides maps providers to a directory holding their executable,
	// used as is, without installation or lock.
	DevOverrides map[addrs.Provider]string
	// CacheMayBreakLock is plugin_cache_may_break_dependency_lock_file, or
	// TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE set (but to "0").
	CacheMayBreakLock bool
	// RegistryRetries is TF_REGISTRY_DISCOVERY_RETRY: how many times a
	// failed request to a registry is tried again; 0 when unset (each
	// client's default then).
	RegistryRetries int
	// RegistryTimeout is TF_REGISTRY_CLIENT_TIMEOUT: how long a request
	// for a registry's metadata (service discovery, versions, download
	// locations) may take; 0 when unset.
	RegistryTimeout time.Duration
	// DownloadRetries is TF_PROVIDER_DOWNLOAD_RETRY (OpenTofu's): how many
	// times a failed provider package download is tried again; 0 when
	// unset.
	DownloadRetries int
	// Hosts are the services of the host blocks, by lower-case host then
	// service ID ("providers.v1").
	Hosts map[string]map[string]string
	// Credentials are the tokens of the credentials blocks by lower-case
	// host. They are secrets: never print them.
	Credentials map[string]string
}

// InstallMethod is one method of a provider_installation block.
type InstallMethod struct {
	// Kind is "filesystem_mirror", "direct" or "network_mirror".
	Kind string
	// Path is a filesystem mirror's directory, or a network mirror's base
	// URL (https, ending in a slash).
	Path             string
	Include, Exclude []Pattern
}

// CLIConfigPath returns the CLI configuration file to read: the one
// TF_CLI_CONFIG_FILE (or TOFU_CLI_CONFIG_FILE, or the older
// TERRAFORM_CONFIG, which both tools still read) names, else ~/.terraformrc,
// else ~/.tofurc (%APPDATA%\terraform.rc, else %APPDATA%\tofu.rc on
// Windows), whichever exists; "" for none.
func CLIConfigPath() string {
	for _, env := range []string{"TF_CLI_CONFIG_FILE", "TOFU_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"} {
		if p := os.Getenv(env); p != "" {
			return p
		}
	}
	for _, p := range userConfigFiles() {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// LoadCLIConfig reads the CLI configuration file CLIConfigPath names (none
// is an empty configuration) and applies TF_PLUGIN_CACHE_DIR.
func LoadCLIConfig() (*CLIConfig, diag.Diagnostics) {
	path := CLIConfigPath()
	cfg := newCLIConfig("")
	var ds diag.Diagnostics
	if path != "" {
		src, err := os.ReadFile(path)
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Unable to open CLI configuration file",
				Detail: fmt.Sprintf("The CLI configuration file at %q is a directory, not a file; rig goes on without a CLI configuration.", path)})
		} else if os.IsNotExist(err) {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Unable to open CLI configuration file",
				Detail: fmt.Sprintf("The CLI configuration file at %q does not exist.", path)})
		} else if err != nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Unable to open CLI configuration file",
				Detail: fmt.Sprintf("The CLI configuration file at %q could not be read: %s.", path, err)})
		} else {
			cfg, ds = ParseCLIConfig(src, path)
		}
	}
	if d := os.Getenv("TF_PLUGIN_CACHE_DIR"); d != "" {
		cfg.PluginCacheDir = expandPath(d)
	}
	if cfg.PluginCacheDir != "" {
		// As OpenTofu: an error among the CLI configuration's problems
		// that stops nothing (see Stops); the directory is made when a
		// package is first cached.
		if _, err := os.Stat(cfg.PluginCacheDir); err != nil {
			cfg.cacheDirProblem = fmt.Sprintf("The specified plugin cache dir %s cannot be opened: %s", cfg.PluginCacheDir, err)
			ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: cfg.cacheDirProblem})
		}
	}
	if v := os.Getenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"); v != "" && v != "0" {
		// Like the setting, and as in Terraform: either one turns it on.
		cfg.CacheMayBreakLock = true
	}
	var n int
	n, ds = positiveEnv("TF_REGISTRY_DISCOVERY_RETRY", "a whole number of retries", ds)
	cfg.RegistryRetries = n
	n, ds = positiveEnv("TF_REGISTRY_CLIENT_TIMEOUT", "a whole number of seconds", ds)
	cfg.RegistryTimeout = time.Duration(n) * time.Second
	n, ds = positiveEnv("TF_PROVIDER_DOWNLOAD_RETRY", "a whole number of retries", ds)
	cfg.DownloadRetries = n
	return cfg, ds
}

// positiveEnv reads the environment variable name as a whole number
// greater than zero, as Terraform and OpenTofu read the registry client's
// settings; 0 when it is unset, and with a warning when it is anything
// else (which they ignore silently).
func positiveEnv(name, what string, ds diag.Diagnostics) (int, diag.Diagnostics) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return 0, ds
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid " + name,
			Detail: fmt.Sprintf("%s must be %s greater than zero, not %q; it is ignored.", name, what, v)})
	}
	return n, ds
}

func newCLIConfig(path string) *CLIConfig {
	return &CLIConfig{Path: path, DevOverrides: map[addrs.Provider]string{}, Hosts: map[string]map[string]string{}, Credentials: map[string]string{}}
}

// ParseCLIConfig parses the content of a CLI configuration file, which is
// HCL 1 as Terraform reads it (dev_overrides keys are quoted provider
// addresses). Settings rig has no use for (disable_checkpoint,
// credentials_helper, …) are ignored.
func ParseCLIConfig(src []byte, filename string) (*CLIConfig, diag.Diagnostics) {
	cfg := newCLIConfig(filename)
	var ds diag.Diagnostics
	bad := func(pos token.Pos, summary, format string, args ...any) {
		ds = ds.Append(diag.Errorf(summary, "%s:%d: %s", filename, pos.Line, fmt.Sprintf(format, args...)))
	}
	// A credentials block's problem only leaves its host without a token.
	warn := func(pos token.Pos, summary, format string, args ...any) {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: summary,
			Detail: fmt.Sprintf("%s:%d: %s", filename, pos.Line, fmt.Sprintf(format, args...))})
	}
	f, err := hcl1.ParseBytes(src)
	if err != nil {
		return cfg, ds.Append(diag.Errorf("Invalid CLI configuration file", "The CLI configuration file %s could not be parsed: %s.", filename, err))
	}
	list, ok := f.Node.(*ast.ObjectList)
	if !ok {
		return cfg, ds.Append(diag.Errorf("Invalid CLI configuration file", "The CLI configuration file %s is not a set of settings.", filename))
	}
	seenInstallation := false
	for _, item := range list.Items {
		switch itemKey(item) {
		case "plugin_cache_dir":
			if s, ok := literalString(item.Val); ok {
				cfg.PluginCacheDir = expandPath(s)
			} else {
				bad(item.Pos(), "Invalid plugin_cache_dir", "plugin_cache_dir must be a string.")
			}
		case "plugin_cache_may_break_dependency_lock_file":
			lit, ok := item.Val.(*ast.LiteralType)
			if !ok || lit.Token.Type != token.BOOL {
				bad(item.Pos(), "Invalid plugin_cache_may_break_dependency_lock_file", "plugin_cache_may_break_dependency_lock_file must be true or false.")
				continue
			}
			cfg.CacheMayBreakLock = lit.Token.Value().(bool)
		case "host":
			decodeHost(cfg, item, bad)
		case "credentials":
			decodeCredentials(cfg, item, warn)
		case "provider_installation":
			if seenInstallation {
				bad(item.Pos(), "Duplicate provider_installation block", "The CLI configuration may have only one provider_installation block.")
				continue
			}
			seenInstallation = true
			cfg.Installation = []InstallMethod{}
			body, ok := item.Val.(*ast.ObjectType)
			if !ok {
				bad(item.Pos(), "Invalid provider_installation block", "provider_installation must be a block.")
				continue
			}
			for _, mi := range body.List.Items {
				decodeInstallMethod(cfg, mi, bad)
			}
		}
	}
	return cfg, ds
}

// blockLabel returns the label of a `KIND "LABEL" { … }` block, lower-cased.
func blockLabel(item *ast.ObjectItem) (string, bool) {
	if len(item.Keys) != 2 {
		return "", false
	}
	s, ok := item.Keys[1].Token.Value().(string)
	return strings.ToLower(s), ok && s != ""
}

// decodeHost reads host "NAME" { services = { "providers.v1" = "URL" } }.
func decodeHost(cfg *CLIConfig, item *ast.ObjectItem, bad func(token.Pos, string, string, ...any)) {
	host, ok := blockLabel(item)
	body, isBlock := item.Val.(*ast.ObjectType)
	if !ok || !isBlock {
		bad(item.Pos(), "Invalid host block", "A host block must be written host \"HOSTNAME\" { services = { … } }.")
		return
	}
	services := map[string]string{}
	for _, a := range body.List.Items {
		if itemKey(a) != "services" {
			continue
		}
		obj, ok := a.Val.(*ast.ObjectType)
		if !ok {
			bad(a.Pos(), "Invalid host block", "services of host %q must be an object of service IDs and URLs.", host)
			continue
		}
		for _, svc := range obj.List.Items {
			// Services rig does not use may be objects (login.v1).
			if u, ok := literalString(svc.Val); ok {
				services[itemKey(svc)] = u
			}
		}
	}
	cfg.Hosts[host] = services
}

// decodeCredentials reads credentials "HOST" { token = "…" }. The token is
// never echoed in a diagnostic.
func decodeCredentials(cfg *CLIConfig, item *ast.ObjectItem, warn func(token.Pos, string, string, ...any)) {
	host, ok := blockLabel(item)
	body, isBlock := item.Val.(*ast.ObjectType)
	if !ok || !isBlock {
		warn(item.Pos(), "Invalid credentials block", "A credentials block must be written credentials \"HOSTNAME\" { token = \"…\" }.")
		return
	}
	for _, a := range body.List.Items {
		if itemKey(a) != "token" {
			continue
		}
		tok, ok := literalString(a.Val)
		if !ok {
			warn(a.Pos(), "Invalid credentials block", "The token for host %q must be a string.", host)
			continue
		}
		cfg.Credentials[host] = tok
	}
}

func itemKey(item *ast.ObjectItem) string {
	if len(item.Keys) == 0 {
		return ""
	}
	if s, ok := item.Keys[0].Token.Value().(string); ok {
		return s
	}
	return item.Keys[0].Token.Text
}

func literalString(n ast.Node) (string, bool) {
	lit, ok := n.(*ast.LiteralType)
	if !ok || (lit.Token.Type != token.STRING && lit.Token.Type != token.HEREDOC) {
		return "", false
	}
	s, ok := lit.Token.Value().(string)
	return s, ok
}

func decodeInstallMethod(cfg *CLIConfig, item *ast.ObjectItem, bad func(token.Pos, string, string, ...any)) {
	kind := itemKey(item)
	body, ok := item.Val.(*ast.ObjectType)
	if !ok {
		bad(item.Pos(), "Invalid provider_installation method block", "%s must be a block.", kind)
		return
	}
	switch kind {
	case "dev_overrides":
		for _, o := range body.List.Items {
			name := itemKey(o)
			p, err := addrs.ParseProviderSource(name)
			if err != nil {
				bad(o.Pos(), "Invalid provider installation dev overrides", "%s.", err)
				continue
			}
			dir, ok := literalString(o.Val)
			if !ok {
				bad(o.Pos(), "Invalid provider installation dev overrides", "The override for %s must be a directory path string.", name)
				continue
			}
			cfg.DevOverrides[p] = expandPath(dir)
		}
		return
	case "filesystem_mirror", "direct", "network_mirror":
	default:
		bad(item.Pos(), "Invalid provider_installation method block", "Unknown provider installation method %q.", kind)
		return
	}
	m := InstallMethod{Kind: kind}
	for _, a := range body.List.Items {
		name := itemKey(a)
		switch name {
		case "path", "url":
			s, ok := literalString(a.Val)
			if !ok {
				bad(a.Pos(), "Invalid "+kind+" block", "%s must be a string.", name)
				continue
			}
			m.Path = s
			if name == "path" {
				m.Path = expandPath(s)
			}
		case "include", "exclude":
			l, ok := a.Val.(*ast.ListType)
			if !ok {
				bad(a.Pos(), "Invalid "+kind+" block", "%s must be a list of provider address patterns.", name)
				continue
			}
			for _, e := range l.List {
				s, ok := literalString(e)
				if !ok {
					bad(a.Pos(), "Invalid "+kind+" block", "%s must be a list of provider address patterns.", name)
					break
				}
				pt, err := ParsePattern(s)
				if err != nil {
					bad(a.Pos(), "Invalid "+kind+" block", "%s.", err)
					continue
				}
				if name == "include" {
					m.Include = append(m.Include, pt)
				} else {
					m.Exclude = append(m.Exclude, pt)
				}
			}
		}
	}
	if kind == "filesystem_mirror" && m.Path == "" {
		bad(item.Pos(), "Invalid filesystem_mirror block", "A filesystem_mirror block requires a \"path\" argument.")
		return
	}
	if kind == "network_mirror" {
		u, err := url.Parse(m.Path)
		if m.Path == "" || err != nil || u.Scheme != "https" || u.Host == "" {
			bad(item.Pos(), "Invalid network_mirror block", "A network_mirror block requires a \"url\" argument with an https: URL.")
			return
		}
		if !strings.HasSuffix(m.Path, "/") {
			m.Path += "/"
		}
	}
	cfg.Installation = append(cfg.Installation, m)
}

// expandPath expands a leading ~/ and environment variables.
func expandPath(s string) string {
	s = os.ExpandEnv(s)
	if strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			s = filepath.Join(home, s[2:])
		}
	}
	return s
}

// ImpliedMirrorDirs returns the local mirror directories Terraform and
// OpenTofu search when the CLI configuration has no provider_installation
// block, in order: terraform.d/plugins in the working directory,
// ~/.terraform.d/plugins (%APPDATA%\terraform.d\plugins on Windows), then
// each XDG data directory's terraform/plugins and opentofu/plugins.
func ImpliedMirrorDirs() []string {
	dirs := []string{filepath.Join("terraform.d", "plugins")}
	if dir := userConfigDir(); dir != "" {
		dirs = append(dirs, filepath.Join(dir, "plugins"))
	}
	home, _ := os.UserHomeDir()
	dataHome := os.Getenv("XDG_DATA_HOME")
	if dataHome == "" && home != "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	dataDirs := os.Getenv("XDG_DATA_DIRS")
	if dataDirs == "" {
		dataDirs = "/usr/local/share:/usr/share"
	}
	for _, d := range append([]string{dataHome}, filepath.SplitList(dataDirs)...) {
		if d == "" {
			continue
		}
		dirs = append(dirs, filepath.Join(d, "terraform", "plugins"), filepath.Join(d, "opentofu", "plugins"))
	}
	return dirs
}

// Client returns the HTTP client of the network sources: the host blocks'
// services, and the credentials blocks' tokens with those of TF_TOKEN_…
// environment variables.
func (cfg *CLIConfig) Client() *Client {
	c := &Client{Services: cfg.Hosts, Credentials: EnvCredentials(cfg.Credentials), RequestTimeout: cfg.RegistryTimeout}
	if cfg.RegistryRetries > 0 {
		c.MaxAttempts = cfg.RegistryRetries + 1
	}
	if cfg.DownloadRetries > 0 {
		c.DownloadAttempts = cfg.DownloadRetries + 1
	}
	return c
}

// Sources returns the installer sources cfg describes, each with the
// providers it may serve: the methods of its provider_installation block
// in order, or when it has none the implied ones (each implied mirror
// directory, then the registries, for the providers none of those
// directories holds), then the plugin cache directory. pluginDirs (from
// -plugin-dir) replace all of these when not empty. client makes the
// requests of direct and network_mirror methods.
func (cfg *CLIConfig) Sources(pluginDirs []string, client *Client) ([]SourceEntry, diag.Diagnostics) {
	if len(pluginDirs) > 0 {
		var out []SourceEntry
		for _, d := range pluginDirs {
			out = append(out, SourceEntry{Source: FilesystemMirror{Dir: d}})
		}
		return out, nil
	}
	var out []SourceEntry
	var ds diag.Diagnostics
	if cfg.Installation == nil {
		var local []Pattern
		for _, d := range ImpliedMirrorDirs() {
			held := mirrorProviders(d)
			if len(held) == 0 {
				continue
			}
			local = append(local, held...)
			out = append(out, SourceEntry{Source: FilesystemMirror{Dir: d}, Include: held})
		}
		out = append(out, SourceEntry{Source: RegistrySource{Client: client}, Exclude: local})
	} else {
		for _, m := range cfg.Installation {
			var src Source
			switch m.Kind {
			case "filesystem_mirror":
				src = FilesystemMirror{Dir: m.Path}
			case "network_mirror":
				u, err := url.Parse(m.Path)
				if err != nil {
					ds = ds.Append(diag.Errorf("Invalid network_mirror block", "The CLI configuration %s has an invalid network mirror URL %q: %s.", cfg.Path, m.Path, err))
					continue
				}
				src = NetworkMirror{URL: u, Client: client}
			case "direct":
				src = RegistrySource{Client: client}
			default:
				continue
			}
			out = append(out, SourceEntry{Source: src, Include: m.Include, Exclude: m.Exclude})
		}
	}
	if cfg.PluginCacheDir != "" {
		out = append(out, SourceEntry{Source: FilesystemMirror{Dir: cfg.PluginCacheDir}})
	}
	return out, ds
}

// mirrorProviders returns a pattern for each provider a mirror directory
// holds (its HOST/NAMESPACE/TYPE directories); none for a missing one.
func mirrorProviders(dir string) []Pattern {
	var out []Pattern
	hosts, _ := os.ReadDir(dir)
	for _, h := range hosts {
		if !h.IsDir() {
			continue
		}
		namespaces, _ := os.ReadDir(filepath.Join(dir, h.Name()))
		for _, n := range namespaces {
			if !n.IsDir() {
				continue
			}
			types, _ := os.ReadDir(filepath.Join(dir, h.Name(), n.Name()))
			for _, t := range types {
				if t.IsDir() {
					out = append(out, Pattern{Hostname: strings.ToLower(h.Name()), Namespace: strings.ToLower(n.Name()), Type: strings.ToLower(t.Name())})
				}
			}
		}
	}
	return out
}

// Stops reports whether ds, the problems LoadCLIConfig found with c,
// should stop what needs the configuration: any error but that of a
// plugin cache directory that cannot be opened, which OpenTofu reports as
// an error and goes on after.
func (c *CLIConfig) Stops(ds diag.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && (c == nil || c.cacheDirProblem == "" || d.Summary != c.cacheDirProblem) {
			return true
		}
	}
	return false
}
