package getmodules

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// ModulesDir is the directory, relative to the working directory, where
// remote modules are installed and the manifest is kept by default
// (Installer.ModulesDir moves it, as TF_DATA_DIR does).
const ModulesDir = ".terraform/modules"

// Installer installs the modules a configuration calls, the way terraform
// init and tofu init do. Its fields are read by Install and must not change
// while it runs; one Installer may run Install any number of times, but not
// concurrently in the same working directory.
type Installer struct {
	// WorkDir is the working directory: the root module's directory, the
	// parent of .terraform, and what manifest Dirs are relative to. ""
	// means the current directory.
	WorkDir string
	// ModulesDir is where remote modules are installed and the manifest
	// is kept: a slash path relative to WorkDir, or an absolute path; ""
	// means ModulesDir. The manifest records the modules' directories
	// under it as given (TF_DATA_DIR/modules/KEY, as Terraform does).
	ModulesDir string
	// Static evaluates the sources and versions of module calls that
	// refer to variables or locals, and const variables; nil accepts
	// constants only.
	Static config.StaticEvaluator
	// Upgrade re-fetches every git module even when the manifest records it
	// with the same source (so a branch ref picks up new commits).
	Upgrade bool
	// Out receives the progress lines terraform init prints
	// ("- net in modules/net", "Downloading SOURCE for KEY..."); nil
	// discards them.
	Out io.Writer
	// Git is the git executable: a path, or a name looked up on PATH; ""
	// means "git". It is looked up the first time a git module is fetched.
	Git string
	// HTTPClient sends the requests to module registries and HTTP sources;
	// nil means a client with the system's certificate authorities and
	// proxy settings, and timeouts for connecting and for each response's
	// headers.
	HTTPClient *http.Client
	// Credentials are the tokens sent to the hosts they belong to.
	Credentials getproviders.Credentials
	// DefaultRegistryHost is the registry a registry address without a
	// host names when the previous manifest does not record the module
	// under one: DefaultRegistryHost ("" means it) or OpenTofuRegistryHost.
	DefaultRegistryHost string
	// Limits bounds the archives HTTP sources download.
	Limits Limits
	// RegistryRetries is how many times a registry request (service
	// discovery, versions, download location) that failed to connect, or
	// was answered 429 or 5xx, is tried again (TF_REGISTRY_DISCOVERY_RETRY);
	// 0 means none.
	RegistryRetries int
	// RegistryTimeout bounds each try of a registry request, its answer
	// read whole (TF_REGISTRY_CLIENT_TIMEOUT); 0 means no bound beyond the
	// HTTP client's.
	RegistryTimeout time.Duration
	// Backoff is the pause before registry retry n (from 1); nil means 1s,
	// 2s, 4s… up to 10s.
	Backoff func(n int) time.Duration
}

// Install installs every module that root calls, directly or through its
// descendants, and returns the new manifest, which it has also written to
// WorkDir/.terraform/modules/modules.json.
//
// root is the root module, loaded from WorkDir; Install only reads it.
// Module calls are visited depth first, in name order within a module;
// each child module is loaded with config.LoadDir to find its own calls,
// and its load errors are returned too.
//
//   - A local source is a directory relative to its caller's; inside a git
//     module it must stay inside that repository. It is used in place.
//   - A git source is cloned into .terraform/modules/KEY (its subdirectory,
//     if any, is the module's directory). A module the previous manifest
//     records with the same source and whose directory exists is reused,
//     unless Upgrade.
//   - An HTTP source is downloaded into .terraform/modules/KEY the same
//     way: an archive is extracted, another URL names the package's source
//     (X-Terraform-Get), which is fetched in its place.
//   - A registry address is looked up in its registry: the newest version
//     its version argument allows is installed like the source the
//     registry names for it, and recorded with its version. A module the
//     previous manifest records with the same address at a version the
//     argument still allows is reused, unless Upgrade.
//   - A version argument on any other source, and any other source, is
//     an error diagnostic at the call's source argument.
//
// The manifest holds the root and every module installed without error; a
// call that fails leaves out its module and its descendants. Only when
// there are no errors are the directories under .terraform/modules that
// no module uses any more removed.
//
// ctx cancels the git commands and HTTP requests (no overall timeout is
// added here). Diagnostics
// about a module call carry the range of its source argument.
func (i *Installer) Install(ctx context.Context, root *config.Module) (Manifest, diag.Diagnostics) {
	workDir := i.WorkDir
	if workDir == "" {
		workDir = "."
	}
	modulesRel := i.ModulesDir
	if modulesRel == "" {
		modulesRel = ModulesDir
	}
	modulesDir := pathIn(workDir, modulesRel)
	rootRecord := Record{Key: "", Source: "", Dir: "."}
	old, err := ReadManifest(modulesDir)
	if err != nil {
		return Manifest{Records: []Record{rootRecord}}, diag.Diagnostics{diag.Errorf(
			"Failed to read module manifest", "%s. Delete the file and run init again to reinstall every module.", err)}
	}
	inst := &installation{
		Installer:  i,
		ctx:        ctx,
		workDir:    workDir,
		modulesDir: modulesDir,
		modulesRel: strings.TrimSuffix(modulesRel, "/"),
		old:        old,
		out:        i.Out,
		remote:     &remote{limits: i.Limits, retries: i.RegistryRetries, timeout: i.RegistryTimeout, backoff: i.Backoff},
	}
	client := i.HTTPClient
	if client == nil {
		client = defaultHTTPClient()
	}
	inst.remote.client = withCredentials(client, i.Credentials)
	if inst.out == nil {
		inst.out = io.Discard
	}
	inst.records = append(inst.records, rootRecord)
	inst.installCalls(root, modulePos{dir: ".", identity: "."})

	m := Manifest{Records: inst.records}
	sortRecords(m.Records)
	if err := WriteManifest(modulesDir, m); err != nil {
		inst.diags = inst.diags.Append(diag.Errorf("Failed to write module manifest", "%s.", err))
	}
	if !inst.diags.HasErrors() {
		if err := removeUnused(modulesDir, inst.modulesRel, m); err != nil {
			inst.diags = inst.diags.Append(diag.Errorf("Failed to remove unused modules", "%s.", err))
		}
	}
	return m, inst.diags
}

// installation is the state of one Install call; it is owned by the
// goroutine running Install.
type installation struct {
	*Installer
	ctx        context.Context
	workDir    string // Installer.WorkDir, "." when empty
	modulesDir string // workDir/.terraform/modules
	modulesRel string // Installer.ModulesDir, or ModulesDir
	old        Manifest
	out        io.Writer

	git     gitRunner
	gitErr  error
	gitSeen bool
	remote  *remote

	records []Record
	diags   diag.Diagnostics
}

// modulePos is where a module sits: its key, its directory relative to the
// working directory (slash-separated), the git package it belongs to
// (pkgDir "" outside any), and its identity with those of its ancestors, to
// refuse a module that calls one of them. A module's identity is its
// directory, or for a git module its source address.
type modulePos struct {
	key       string
	dir       string
	pkgDir    string
	pkgSource Source
	identity  string
	ancestors []string
}

// installCalls installs the calls of mod, which sits at pos.
func (inst *installation) installCalls(mod *config.Module, pos modulePos) {
	names := make([]string, 0, len(mod.ModuleCalls))
	for name := range mod.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if inst.ctx.Err() != nil {
			inst.diags = inst.diags.Append(diag.Errorf("Module installation cancelled", "%s.", inst.ctx.Err()))
			return
		}
		call := mod.ModuleCalls[name]
		ds := mod.ResolveCall(call, inst.Static)
		inst.diags = inst.diags.Append(ds)
		if ds.HasErrors() {
			continue
		}
		inst.installCall(mod, call, pos)
	}
}

func (inst *installation) installCall(mod *config.Module, call *config.ModuleCall, parent modulePos) {
	key := call.Name
	if parent.key != "" {
		key = parent.key + "." + call.Name
	}
	rng := call.SourceRange
	if rng == (hcl.Range{}) {
		// No source argument: config has reported it.
		return
	}
	src, err := ParseSource(call.Source)
	if err != nil && call.Version != "" {
		if host, ok := registryShapedHost(call.Source); ok {
			// With a version, the source can only be a registry address:
			// its host name is what is wrong, as OpenTofu reports.
			_, herr := addrs.ParseRegistryHostname(host)
			inst.diags = inst.diags.Append(versionedSourceProblem(rng, fmt.Sprintf("invalid module registry hostname %q: %s", host, herr)))
			return
		}
	}
	if err != nil {
		summary := "Invalid module source address"
		if src.Kind == OtherSource {
			summary = "Unsupported module source"
		}
		inst.diags = inst.diags.Append(diag.At(rng, summary, fmt.Sprintf("Module %q: %s", key, err)))
		return
	}
	if call.Version != "" && src.Kind != RegistrySource {
		inst.diags = inst.diags.Append(versionNotAllowed(rng, src))
		return
	}
	if src.Kind == RegistrySource {
		src.Host = inst.registryHost(key, src)
	}

	pos := modulePos{key: key, pkgDir: parent.pkgDir, pkgSource: parent.pkgSource,
		ancestors: append(parent.ancestors[:len(parent.ancestors):len(parent.ancestors)], parent.identity)}
	switch src.Kind {
	case LocalSource:
		pos.dir = path.Join(parent.dir, src.Path)
		pos.identity = pos.dir
	default:
		pos.identity = src.String()
	}
	for _, a := range pos.ancestors {
		if a == pos.identity {
			inst.diags = inst.diags.Append(diag.At(rng, "Recursive module call", fmt.Sprintf(
				"Module %q is %s, which is also one of its calling modules: installing it would never end.", key, pos.identity)))
			return
		}
	}
	version := ""
	switch src.Kind {
	case LocalSource:
		if pos.pkgDir != "" && !within(pos.pkgDir, pos.dir) {
			inst.diags = inst.diags.Append(diag.At(rng, "Local module path escapes module package", fmt.Sprintf(
				"The source directory %s of module %q would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the package of the calling module.",
				pos.dir, key, pos.pkgSource)))
			return
		}
		if !inst.checkDir(call, key, pos.dir, "") {
			return
		}
		// As OpenTofu: listed when new or moved, and all again with -upgrade.
		if prev, ok := inst.old.Record(key); !ok || inst.Upgrade || prev.Source != src.String() || prev.Dir != pos.dir {
			fmt.Fprintf(inst.out, "- %s in %s\n", key, pos.dir)
		}
	case GitSource, HTTPSource:
		pkgDir := inst.modulesRel + "/" + key
		pos.pkgDir, pos.pkgSource = pkgDir, src.Package()
		pos.dir = pkgDir
		if src.Subdir != "" {
			pos.dir = pkgDir + "/" + src.Subdir
		}
		if prevDir, ok := inst.installed(key, src, pkgDir, pos.dir); ok {
			pos.dir = prevDir
		} else {
			// Like terraform, name the package being downloaded, not the subdirectory.
			dir, ok := inst.download(call, key, src.Package().String(), inst.packageRef(src.Package()), pkgDir, src.Subdir)
			if !ok {
				return
			}
			pos.dir = dir
		}
	case RegistrySource:
		pkgDir := inst.modulesRel + "/" + key
		pos.pkgDir, pos.pkgSource = pkgDir, src.Package()
		dir, v, ok := inst.installRegistry(call, key, src, pkgDir)
		if !ok {
			return
		}
		pos.dir, version = dir, v
	default:
		panic(fmt.Sprintf("getmodules: ParseSource accepted a %s", src.Kind))
	}
	inst.records = append(inst.records, Record{Key: key, Source: src.String(), Version: version, Dir: pos.dir})

	child, ds := config.LoadDir(pathIn(inst.workDir, pos.dir))
	if ds.HasErrors() && child != nil {
		// As OpenTofu: a module written for another version may use what
		// this one does not know, so only its version is reported.
		if more := child.CheckCoreVersion(); more.HasErrors() {
			ds = more
		}
	}
	inst.diags = inst.diags.Append(ds)
	inst.diags = inst.diags.Append(child.SetStatic(mod, call.Name, inst.Static))
	inst.installCalls(child, pos)
}

// installed returns the directory of module key (src, installed in
// pkgDir) when the previous manifest records it with the same source in
// dir (in pkgDir when src's subdirectory has wildcards) and that
// directory exists, so that it need not be fetched again (never with
// Upgrade).
func (inst *installation) installed(key string, src Source, pkgDir, dir string) (string, bool) {
	prev, ok := inst.old.Record(key)
	if !ok || inst.Upgrade || prev.Source != src.String() {
		return "", false
	}
	if prev.Dir != dir && !(hasWildcards(src.Subdir) && within(pkgDir, prev.Dir)) {
		return "", false
	}
	fi, err := os.Stat(pathIn(inst.workDir, prev.Dir))
	return prev.Dir, err == nil && fi.IsDir()
}

// hasWildcards reports whether a subdirectory is a pattern ("*", "x-*").
func hasWildcards(subdir string) bool { return strings.ContainsAny(subdir, "*?[") }

// download fetches the package pkg of module key into pkgDir (relative to
// the working directory), replacing whatever was there, and returns the
// module's directory: pkgDir or its subdirectory subdir, which must exist.
// A subdir with wildcards is matched against the package as go-getter
// does ("*" is the only top directory of an archive); it must match
// exactly one path. label names the download in the progress line.
// Failures are diagnostics at the call's source.
func (inst *installation) download(call *config.ModuleCall, key, label string, pkg packageRef, pkgDir, subdir string) (string, bool) {
	dir, ok := inst.fetchInto(call, key, label, pkg, pkgDir, subdir)
	if ok {
		fmt.Fprintf(inst.out, "- %s in %s\n", key, dir)
	}
	return dir, ok
}

// fetchInto is download without its last progress line.
func (inst *installation) fetchInto(call *config.ModuleCall, key, label string, pkg packageRef, pkgDir, subdir string) (string, bool) {
	fmt.Fprintf(inst.out, "Downloading %s for %s...\n", label, key)
	failed := func(err error) (string, bool) {
		summary := "Failed to download module"
		if errors.Is(err, errArchive) {
			summary = "Invalid module archive"
		}
		inst.diags = inst.diags.Append(diag.At(call.SourceRange, summary, fmt.Sprintf(
			"Could not download module %q (%s) source code from %q: %s.", key, inst.declPos(call), pkg.addr, err)))
		return "", false
	}
	target, err := filepath.Abs(pathIn(inst.workDir, pkgDir))
	if err != nil {
		return failed(err)
	}
	if err := os.RemoveAll(target); err != nil {
		return failed(err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return failed(err)
	}
	if err := pkg.fetch(inst.ctx, target); err != nil {
		os.RemoveAll(target)
		return failed(err)
	}
	dir := pkgDir
	if subdir != "" {
		dir = pkgDir + "/" + subdir
	}
	if hasWildcards(subdir) {
		matches, err := filepath.Glob(filepath.Join(target, filepath.FromSlash(subdir)))
		if err != nil || len(matches) != 1 {
			problem := fmt.Sprintf("it matches %d paths, not one", len(matches))
			if err != nil {
				problem = err.Error()
			}
			inst.diags = inst.diags.Append(diag.At(call.SourceRange, "Unreadable module directory", fmt.Sprintf(
				"The subdirectory %q of module %q at %s could not be found in its package: %s.", subdir, key, inst.declPos(call), problem)))
			return "", false
		}
		rel, err := filepath.Rel(target, matches[0])
		if err != nil {
			return failed(err)
		}
		dir = pkgDir + "/" + filepath.ToSlash(rel)
	}
	if !inst.checkDir(call, key, dir, subdir) {
		return "", false
	}
	return dir, true
}

// packageRef is a package to download: its address, for messages, and
// how to fetch it into a directory that does not exist yet.
type packageRef struct {
	addr  string
	fetch func(ctx context.Context, dest string) error
}

// packageRef returns the reference to fetch the git or HTTP package pkg.
func (inst *installation) packageRef(pkg Source) packageRef {
	return packageRef{addr: pkg.String(), fetch: func(ctx context.Context, dest string) error {
		return inst.fetchPackage(ctx, pkg, dest, 0)
	}}
}

// fetchPackage fetches the package pkg (a git or HTTP source without
// subdirectory) into dest, which does not exist. depth counts the
// X-Terraform-Get answers followed so far.
func (inst *installation) fetchPackage(ctx context.Context, pkg Source, dest string, depth int) error {
	switch pkg.Kind {
	case GitSource:
		if !inst.gitSeen {
			inst.gitSeen = true
			inst.git, inst.gitErr = findGit(inst.Git)
		}
		if inst.gitErr != nil {
			return fmt.Errorf("rig needs git to install git sources: %w", inst.gitErr)
		}
		return inst.git.clone(ctx, pkg, dest)
	case HTTPSource:
		return inst.remote.fetchHTTP(ctx, pkg, dest, depth, inst.fetchPackage)
	}
	return fmt.Errorf("rig cannot fetch a %s package", pkg.Kind)
}

// checkDir reports whether dir (relative to the working directory) is a
// directory, with an "Unreadable module directory" diagnostic if not.
// subdir is the subdirectory of a remote source, named in the message.
func (inst *installation) checkDir(call *config.ModuleCall, key, dir, subdir string) bool {
	fi, err := os.Stat(pathIn(inst.workDir, dir))
	if err == nil && fi.IsDir() {
		return true
	}
	problem := "it does not exist"
	switch {
	case subdir != "":
		problem = fmt.Sprintf("the package has no subdirectory %q", subdir)
	case err == nil:
		problem = "it is not a directory"
	case !os.IsNotExist(err):
		problem = err.Error()
	}
	inst.diags = inst.diags.Append(diag.At(call.SourceRange, "Unreadable module directory", fmt.Sprintf(
		"The directory %s could not be read for module %q at %s: %s.", dir, key, inst.declPos(call), problem)))
	return false
}

// versionNotAllowed is the error for a version argument on a source that
// is not a registry address.
func versionNotAllowed(rng hcl.Range, src Source) diag.Diagnostic {
	reason := "a module registry source address must have either three or four slash-separated components"
	if src.Kind == LocalSource {
		reason = fmt.Sprintf("can't use local directory %q as a module registry address", src.Raw)
	}
	return versionedSourceProblem(rng, reason)
}

// versionedSourceProblem is the error of a module source that a version
// argument makes a registry address, but that is not a valid one.
func versionedSourceProblem(rng hcl.Range, reason string) diag.Diagnostic {
	return diag.At(rng, "Invalid registry module source address", fmt.Sprintf(
		"Failed to parse module registry address: %s.\n\nrig assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.",
		reason))
}

// declPos is "main.tf:3", the module block's position for messages, its
// file named relative to the working directory when it is inside it.
func (inst *installation) declPos(call *config.ModuleCall) string {
	name := call.DeclRange.Filename
	if rel, err := filepath.Rel(inst.workDir, name); err == nil && filepath.IsAbs(name) == filepath.IsAbs(inst.workDir) &&
		rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		name = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d", name, call.DeclRange.Start.Line)
}

// pathIn returns the file path of the slash path dir, which is relative to
// workDir unless absolute.
func pathIn(workDir, dir string) string {
	p := filepath.FromSlash(dir)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(workDir, p)
}

// within reports whether the slash path dir is base or inside it.
func within(base, dir string) bool {
	return dir == base || strings.HasPrefix(dir, base+"/")
}

// removeUnused removes the directories of modulesDir (modulesRel as the
// manifest writes it) that no remote module of m is installed in. Only names that can be module keys (identifiers joined
// by dots) are considered, so nothing else a user keeps there is touched.
func removeUnused(modulesDir, modulesRel string, m Manifest) error {
	used := map[string]bool{}
	for _, r := range m.Records {
		if within(modulesRel+"/"+r.Key, r.Dir) && r.Key != "" {
			used[r.Key] = true
		}
	}
	entries, err := os.ReadDir(modulesDir)
	if err != nil {
		return fmt.Errorf("read %s: %w", modulesDir, err)
	}
	for _, e := range entries {
		if !e.IsDir() || used[e.Name()] || !isModuleKey(e.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(modulesDir, e.Name())); err != nil {
			return fmt.Errorf("remove unused module directory: %w", err)
		}
	}
	return nil
}

// isModuleKey reports whether s is a dotted path of module call names.
func isModuleKey(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !hclsyntax.ValidIdentifier(part) {
			return false
		}
	}
	return true
}
