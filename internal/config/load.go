package config

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// configFileSchema is the top level of a configuration file. Any other block
// type or any attribute gets hcl's "Unsupported block type" or "Unsupported
// argument" diagnostic.
var configFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "required_providers"}, // only to say it belongs in "terraform"
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "removed"},
	},
}

// LoadDir loads every configuration file of dir: names ending in ".tf" or
// ".tf.json", except those starting with "." or ending in "~" or "#" (editor
// files). Filenames in source ranges are filepath.Join(dir, name), so
// "main.tf" when dir is ".". Override files (override.tf, *_override.tf and
// their .tf.json forms) are reported as unsupported.
//
// The returned Module is never nil; with error diagnostics it is partial.
func LoadDir(dir string) (*Module, diag.Diagnostics) {
	return loadDir(osFiles{}, dir)
}

// files reads a module's directory: the file system, or an fs.FS.
type files interface {
	ReadDir(dir string) ([]fs.DirEntry, error)
	ReadFile(name string) ([]byte, error)
	// Join joins a directory and a slash-separated relative path.
	Join(dir, rel string) string
}

type osFiles struct{}

func (osFiles) ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }
func (osFiles) ReadFile(name string) ([]byte, error)      { return os.ReadFile(name) }
func (osFiles) Join(dir, rel string) string               { return filepath.Join(dir, filepath.FromSlash(rel)) }

type fsFiles struct{ fsys fs.FS }

func (f fsFiles) ReadDir(dir string) ([]fs.DirEntry, error) { return fs.ReadDir(f.fsys, dir) }
func (f fsFiles) ReadFile(name string) ([]byte, error)      { return fs.ReadFile(f.fsys, name) }
func (fsFiles) Join(dir, rel string) string                 { return path.Join(dir, rel) }

func loadDir(r files, dir string) (*Module, diag.Diagnostics) {
	entries, err := r.ReadDir(dir)
	if err != nil {
		m := newModule()
		m.SourceDir = dir
		return m, diag.Diagnostics{diag.Errorf("Failed to read module directory",
			"Module directory %s does not exist or cannot be read.", dir)}
	}
	var diags diag.Diagnostics
	files := map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || isIgnoredFile(name) || !isConfigFile(name) {
			continue
		}
		path := r.Join(dir, name)
		src, err := r.ReadFile(path)
		if err != nil {
			diags = diags.Append(diag.Errorf("Failed to read file", "The file %q could not be read: %s.", path, err))
			continue
		}
		files[path] = src
	}
	m, loadDiags := LoadFiles(files)
	m.SourceDir = dir
	return m, append(diags, loadDiags...)
}

// LoadFiles loads a module from file contents keyed by filename (used as is
// in source ranges). Files are processed in filename order; the syntax is
// chosen by suffix: ".tf.json" is JSON, anything else native syntax.
func LoadFiles(files map[string][]byte) (*Module, diag.Diagnostics) {
	m := newModule()
	var hdiags hcl.Diagnostics

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)

	for _, name := range names {
		src := files[name]
		m.Sources[name] = src
		if isOverrideFile(name) {
			hdiags = append(hdiags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Override files are not supported",
				Detail:   fmt.Sprintf("rig does not support override files yet, and so cannot load %s. Merge its contents into the module's other files, or rename it.", name),
				Subject:  &hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos},
			})
			continue
		}
		var file *hcl.File
		var parseDiags hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			file, parseDiags = hcljson.Parse(src, name)
		} else {
			file, parseDiags = parseNative(src, name)
		}
		hdiags = append(hdiags, parseDiags...)
		if file == nil || file.Body == nil {
			continue
		}
		if more := checkNumberLiterals(file.Body); more.HasErrors() {
			hdiags = append(hdiags, more...)
			continue
		}
		hdiags = append(hdiags, m.addFile(file.Body)...)
	}
	return m, diag.FromHCL(hdiags)
}

func isConfigFile(name string) bool {
	return strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json")
}

func isIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

func isOverrideFile(path string) bool {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, ".json")
	base = strings.TrimSuffix(base, ".tf")
	return base == "override" || strings.HasSuffix(base, "_override")
}

// addFile decodes one file's body into m, reporting conflicts with what
// earlier files declared.
func (m *Module) addFile(body hcl.Body) hcl.Diagnostics {
	content, diags := body.Content(configFileSchema)
	for _, block := range content.Blocks {
		switch block.Type {
		case "terraform":
			tb, tDiags := decodeTerraformBlock(block)
			diags = append(diags, tDiags...)
			diags = append(diags, m.addTerraformBlock(tb)...)
		case "required_providers":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_providers block",
				Detail:   "A \"required_providers\" block must be nested inside a \"terraform\" block.",
				Subject:  block.TypeRange.Ptr(),
			})
		case "provider":
			p, pDiags := decodeProviderBlock(block)
			diags = append(diags, pDiags...)
			if p != nil {
				diags = append(diags, m.addProvider(p)...)
			}
		case "variable":
			v, vDiags := decodeVariableBlock(block)
			diags = append(diags, vDiags...)
			if existing, ok := m.Variables[v.Name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate variable declaration",
					Detail:   fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within a module.", existing.Name, existing.DeclRange),
					Subject:  v.DeclRange.Ptr(),
				})
				continue
			}
			m.Variables[v.Name] = v
		case "locals":
			locals, lDiags := decodeLocalsBlock(block)
			diags = append(diags, lDiags...)
			sort.Slice(locals, func(i, j int) bool { return locals[i].DeclRange.Start.Byte < locals[j].DeclRange.Start.Byte })
			for _, l := range locals {
				if existing, ok := m.Locals[l.Name]; ok {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Duplicate local value definition",
						Detail:   fmt.Sprintf("A local value named %q was already defined at %s. Local value names must be unique within a module.", existing.Name, existing.DeclRange),
						Subject:  l.DeclRange.Ptr(),
					})
					continue
				}
				m.Locals[l.Name] = l
			}
		case "output":
			o, oDiags := decodeOutputBlock(block)
			diags = append(diags, oDiags...)
			if existing, ok := m.Outputs[o.Name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate output definition",
					Detail:   fmt.Sprintf("An output named %q was already defined at %s. Output names must be unique within a module.", existing.Name, existing.DeclRange),
					Subject:  o.DeclRange.Ptr(),
				})
				continue
			}
			m.Outputs[o.Name] = o
		case "module":
			mc, mDiags := decodeModuleBlock(block)
			diags = append(diags, mDiags...)
			if existing, ok := m.ModuleCalls[mc.Name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate module call",
					Detail:   fmt.Sprintf("A module call named %q was already defined at %s. Module calls must have unique names within a module.", existing.Name, existing.DeclRange),
					Subject:  mc.DeclRange.Ptr(),
				})
				continue
			}
			m.ModuleCalls[mc.Name] = mc
		case "resource":
			r, rDiags := decodeResourceBlock(block, addrs.Managed)
			diags = append(diags, rDiags...)
			if existing, ok := m.ManagedResources[r.Addr]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate resource %q configuration", existing.Addr.Type),
					Detail:   fmt.Sprintf("A %s resource named %q was already declared at %s. Resource names must be unique per type in each module.", existing.Addr.Type, existing.Addr.Name, existing.DeclRange),
					Subject:  r.DeclRange.Ptr(),
				})
				continue
			}
			m.ManagedResources[r.Addr] = r
		case "data":
			r, rDiags := decodeResourceBlock(block, addrs.Data)
			diags = append(diags, rDiags...)
			if existing, ok := m.DataResources[r.Addr]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate data %q configuration", existing.Addr.Type),
					Detail:   fmt.Sprintf("A %s data resource named %q was already declared at %s. Resource names must be unique per type in each module.", existing.Addr.Type, existing.Addr.Name, existing.DeclRange),
					Subject:  r.DeclRange.Ptr(),
				})
				continue
			}
			m.DataResources[r.Addr] = r
		case "moved", "import", "removed", "check":
			raw := &RawBlock{Type: block.Type, Labels: block.Labels, Body: block.Body, DeclRange: block.DefRange}
			switch block.Type {
			case "moved":
				m.Moved = append(m.Moved, raw)
			case "import":
				m.Imports = append(m.Imports, raw)
			case "removed":
				m.Removed = append(m.Removed, raw)
			case "check":
				m.Checks = append(m.Checks, raw)
			}
		}
	}
	return diags
}

func (m *Module) addTerraformBlock(tb *terraformBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	t := m.Terraform
	t.DeclRanges = append(t.DeclRanges, tb.declRange)
	if tb.requiredVersion != nil {
		t.RequiredVersion = append(t.RequiredVersion, tb.requiredVersion)
	}
	for _, b := range tb.backends {
		if t.Backend != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate backend configuration",
				Detail:   fmt.Sprintf("A module may have only one backend configuration. The backend was previously configured at %s.", t.Backend.DeclRange),
				Subject:  b.DeclRange.Ptr(),
			})
			continue
		}
		t.Backend = b
	}
	for _, c := range tb.clouds {
		if t.Cloud != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate cloud configurations",
				Detail:   fmt.Sprintf("A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at %s.", t.Cloud.DeclRange),
				Subject:  c.DeclRange.Ptr(),
			})
			continue
		}
		t.Cloud = c
	}
	if len(tb.clouds) > 0 && t.Backend != nil && t.Cloud != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Both a backend and a cloud configuration are present",
			Detail:   fmt.Sprintf("A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at %s; a backend is configured at %s. Remove the backend block to configure a cloud backend.", t.Cloud.DeclRange, t.Backend.DeclRange),
			Subject:  t.Backend.DeclRange.Ptr(),
		})
	}
	for _, e := range tb.encryptions {
		if t.Encryption != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate encryption configuration",
				Detail:   fmt.Sprintf("A module may have only one encryption configuration. Encryption was previously configured at %s.", t.Encryption.DeclRange),
				Subject:  e.DeclRange.Ptr(),
			})
			continue
		}
		t.Encryption = e
	}
	for _, rp := range tb.requiredProviders {
		if t.RequiredProvidersDeclRange != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate required providers configuration",
				Detail:   fmt.Sprintf("A module may have only one required providers configuration. The required providers were previously configured at %s.", *t.RequiredProvidersDeclRange),
				Subject:  rp.declRange.Ptr(),
			})
			continue
		}
		rng := rp.declRange
		t.RequiredProvidersDeclRange = &rng
		for name, p := range rp.providers {
			t.RequiredProviders[name] = p
		}
	}
	return diags
}

func (m *Module) addProvider(p *Provider) hcl.Diagnostics {
	key := p.Key()
	existing, ok := m.ProviderConfigs[key]
	if !ok {
		m.ProviderConfigs[key] = p
		return nil
	}
	detail := fmt.Sprintf("A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", existing.Name, existing.DeclRange)
	if existing.Alias != "" {
		detail = fmt.Sprintf("A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", existing.Name, existing.Alias, existing.DeclRange)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate provider configuration", Detail: detail, Subject: p.DeclRange.Ptr()}}
}

func sortedAttrNames(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		return attrs[names[i]].Range.Start.Byte < attrs[names[j]].Range.Start.Byte
	})
	return names
}
