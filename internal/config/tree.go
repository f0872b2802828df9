package config

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// maxModuleDepth bounds the nesting of module calls, so that a module that
// calls itself is an error rather than an endless load.
const maxModuleDepth = 64

// ModuleDirResolver returns the directory holding the installed source of a
// non-local module call: key is the call's manifest key (the call names from
// the root joined by dots, "net.subnet"). LoadTree resolves local sources
// itself.
type ModuleDirResolver func(key string, call *ModuleCall) (dir string, ds diag.Diagnostics)

// IsLocalSource reports whether a module source is a local path, "./x" or
// "../x" (or, as Terraform allows, ".\x" or "..\x"), which is loaded in
// place rather than installed.
func IsLocalSource(source string) bool {
	for _, prefix := range []string{"./", "../", `.\`, `..\`} {
		if strings.HasPrefix(source, prefix) {
			return true
		}
	}
	return source == "." || source == ".."
}

// LocalSourcePath returns a local module source as a slash-separated path
// relative to the calling module: backslashes are separators on every
// system, so a configuration reads the same on Windows and elsewhere.
func LocalSourcePath(source string) string { return strings.ReplaceAll(source, `\`, "/") }

// TreeOptions says how LoadTree finds what a working directory installed.
type TreeOptions struct {
	// Resolve finds the directory of a non-local module call; nil reports
	// such calls as not installed.
	Resolve ModuleDirResolver
	// ProviderHost gives the address under which the working directory
	// records a provider whose source address names no hostname (or that
	// a local name implies): it is called with the provider under
	// addrs.DefaultProviderRegistryHost and returns it under the host to
	// use. Nil keeps addrs.DefaultProviderRegistryHost. It is called while
	// loading, from one goroutine.
	ProviderHost func(addrs.Provider) addrs.Provider
	// Static evaluates what the tree needs before it can be planned: the
	// source and version of module calls that refer to variables or
	// locals, const variables, and (through Module.StaticValue) backend
	// and encryption settings. Nil accepts constants only.
	Static StaticEvaluator
	// QueryFiles loads the root module's query files too (*.tfquery.hcl,
	// *.tfquery.json): their list blocks, and their provider, variable and
	// locals blocks as the module's own, as rig query and validate -query
	// need them.
	QueryFiles bool
}

// LoadTree loads the root module in dir and every module it calls,
// recursively, into Module.Children. Local sources are directories relative
// to the calling module's; any other source is found by opts.Resolve. Each
// module's Sources hold its own files; the root's Sources hold every file
// of the tree, for diagnostic snippets. The providers of every module are
// under the hosts opts.ProviderHost gives (Module.ProviderFor).
//
// The returned Module is never nil; with error diagnostics it may be partial.
func LoadTree(dir string, opts TreeOptions) (*Module, diag.Diagnostics) {
	root, ds := LoadDir(dir)
	if opts.QueryFiles {
		ds = ds.Append(root.addQueryFiles(osFiles{}, dir))
	}
	root.static = opts.Static
	ds = ds.Append(checkConstVariables(root))
	ds = ds.Append(loadChildren(osFiles{}, root, root, opts.Resolve))
	ds = ds.Append(checkProviderInstances(root))
	if opts.ProviderHost != nil {
		setProviderHosts(root, opts.ProviderHost)
	}
	return root, ds
}

// LoadTreeFS is LoadTree reading from fsys, whose root directory "." holds
// the root module; filenames in source ranges are fsys paths
// ("main.tf", "modules/net/main.tf"). Directories opts.Resolve returns are
// fsys paths too.
func LoadTreeFS(fsys fs.FS, opts TreeOptions) (*Module, diag.Diagnostics) {
	r := fsFiles{fsys}
	root, ds := loadDir(r, ".")
	if opts.QueryFiles {
		ds = ds.Append(root.addQueryFiles(r, "."))
	}
	root.static = opts.Static
	ds = ds.Append(checkConstVariables(root))
	ds = ds.Append(loadChildren(r, root, root, opts.Resolve))
	ds = ds.Append(checkProviderInstances(root))
	if opts.ProviderHost != nil {
		setProviderHosts(root, opts.ProviderHost)
	}
	return root, ds
}

// setProviderHosts moves the providers of m and the modules below it whose
// source address names no hostname to the address host gives.
func setProviderHosts(m *Module, host func(addrs.Provider) addrs.Provider) {
	m.providerHost = host
	for _, rp := range m.Terraform.RequiredProviders {
		if !rp.NamesHost() && rp.Provider.Hostname == addrs.DefaultProviderRegistryHost {
			rp.Provider = host(rp.Provider)
		}
	}
	for _, child := range m.Children {
		setProviderHosts(child, host)
	}
}

func loadChildren(r files, root, m *Module, resolve ModuleDirResolver) diag.Diagnostics {
	ds := undefinedPassedProviders(m)
	names := make([]string, 0, len(m.ModuleCalls))
	for name := range m.ModuleCalls {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		call := m.ModuleCalls[name]
		path := m.Path.Child(name)
		if path.Depth() > maxModuleDepth {
			ds = ds.Append(diag.At(call.DeclRange, "Module calls nested too deeply",
				fmt.Sprintf("The module call %s is nested more than %d levels deep; a module probably calls itself, directly or through other modules.", path, maxModuleDepth)))
			continue
		}
		resolved := m.resolveCall(call)
		ds = ds.Append(resolved)
		if resolved.HasErrors() {
			continue
		}
		dir, more := moduleDir(r, m, call, strings.Join(path.Calls(), "."), resolve)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		child, more := loadDir(r, dir)
		if more.HasErrors() && len(child.Sources) == 0 {
			ds = ds.Append(diag.At(call.SourceRange, "Unreadable module directory",
				fmt.Sprintf("The directory %s for module %s could not be read.", dir, path)))
			continue
		}
		ds = ds.Append(more)
		child.Path = path
		child.Parent = m
		child.static = m.static
		m.Children[name] = child
		for f, src := range child.Sources {
			root.Sources[f] = src
		}
		ds = ds.Append(checkChildOnlyBlocks(child))
		ds = ds.Append(checkConstVariables(child))
		ds = ds.Append(redundantProviderBlocks(child))
		ds = ds.Append(callProviderProblems(m, call, child))
		ds = ds.Append(loadChildren(r, root, child, resolve))
	}
	return ds
}

// moduleDir finds the directory of call's source.
func moduleDir(r files, m *Module, call *ModuleCall, key string, resolve ModuleDirResolver) (string, diag.Diagnostics) {
	if IsLocalSource(call.Source) {
		if call.VersionRange != nil {
			return "", diag.Diagnostics{diag.At(call.SourceRange, "Invalid registry module source address",
				fmt.Sprintf("Failed to parse module registry address: can't use local directory %q as a module registry address.\n\nrig assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", call.Source))}
		}
		base := m.SourceDir
		if base == "" {
			base = "."
		}
		return r.Join(base, LocalSourcePath(call.Source)), nil
	}
	if resolve == nil {
		return "", diag.Diagnostics{notInstalled(call, key)}
	}
	return resolve(key, call)
}

func notInstalled(call *ModuleCall, _ string) diag.Diagnostic {
	return diag.At(call.DeclRange, "Module not installed",
		"This module is not yet installed. Run \"rig init\" to install all modules required by this configuration.")
}

// NotInstalledDiag is the diagnostic for a call whose source a resolver
// cannot find in the installed modules.
func NotInstalledDiag(call *ModuleCall, key string) diag.Diagnostic { return notInstalled(call, key) }

// checkChildOnlyBlocks reports what only a root module may declare.
func checkChildOnlyBlocks(m *Module) diag.Diagnostics {
	var ds diag.Diagnostics
	// Import blocks are allowed in child modules (Terraform 1.16).
	if m.Terraform.Backend != nil {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Backend configuration ignored",
			Detail:  "Any selected backend applies to the entire configuration, so rig expects backend configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.",
			Subject: m.Terraform.Backend.DeclRange.Ptr()})
	}
	return ds
}

// Descendant returns the module at static path p below m (m itself for
// the root path), or nil when the tree has no such module.
func (m *Module) Descendant(p addrs.Module) *Module {
	cur := m
	for _, name := range p.Calls() {
		if cur == nil {
			return nil
		}
		cur = cur.Children[name]
	}
	return cur
}

// AllModules returns m and every module below it, parents before children,
// calls in name order.
func (m *Module) AllModules() []*Module {
	out := []*Module{m}
	for i := 0; i < len(out); i++ {
		cur := out[i]
		names := make([]string, 0, len(cur.Children))
		for name := range cur.Children {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			out = append(out, cur.Children[name])
		}
	}
	return out
}

// ConfigResource returns the resource at addr in the tree below m, or nil.
func (m *Module) ConfigResource(addr addrs.ConfigResource) *Resource {
	mod := m.Descendant(addr.Module)
	if mod == nil {
		return nil
	}
	return mod.ResourceByAddr(addr.Resource)
}

// CallRange returns the module block that calls m, or nil for the root.
func (m *Module) CallRange() *hcl.Range {
	if m.Parent == nil {
		return nil
	}
	_, name := m.Path.Parent()
	if c := m.Parent.ModuleCalls[name]; c != nil {
		return c.DeclRange.Ptr()
	}
	return nil
}
