package config

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "removed"},
		{Type: "language"},
		{Type: "action", LabelNames: []string{"type", "name"}},
	},
}

// LoadDir loads every configuration file of dir: names ending in ".tf",
// ".tf.json", ".tofu" or ".tofu.json", except those starting with "." or
// ending in "~" or "#" (editor files), and except a ".tf" or ".tf.json" file
// beside a ".tofu" or ".tofu.json" file of the same name, which takes its
// place. Filenames in source ranges are filepath.Join(dir, name), so
// "main.tf" when dir is ".". Override files (override.tf, *_override.tf and
// their .tf.json, .tofu and .tofu.json forms) are merged into the blocks of
// the other files; see LoadFiles.
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
// in source ranges). The syntax is chosen by suffix: ".json" is JSON,
// anything else native syntax. A ".tf" or ".tf.json" file is left out when
// files holds the ".tofu" or ".tofu.json" file of the same name.
//
// Primary files are processed first, in filename order; then each override
// file (override.tf, name_override.tf and their other forms), in filename
// order, merges its blocks into those the primary files declared, by
// OpenTofu's rules (see mergeFile).
func LoadFiles(files map[string][]byte) (*Module, diag.Diagnostics) {
	m := newModule()
	var hdiags hcl.Diagnostics

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	names = preferTofuFiles(names)

	// load parses one file and hands its body to add (a primary file's
	// blocks are added, an override file's merged).
	load := func(name string, add func(hcl.Body) hcl.Diagnostics) {
		body, parseDiags := parseFile(name, files[name])
		m.Sources[name] = files[name]
		hdiags = append(hdiags, parseDiags...)
		if body == nil {
			return
		}
		more := checkFileNumberLiterals(body, files[name])
		if strings.HasSuffix(name, ".json") && !parseDiags.HasErrors() {
			more = append(more, checkJSONNumbers(name, files[name])...)
		}
		if more.HasErrors() {
			hdiags = append(hdiags, more...)
			return
		}
		hdiags = append(hdiags, add(body)...)
	}
	var overrides []string
	for _, name := range names {
		if isOverrideFile(name) {
			overrides = append(overrides, name)
			continue
		}
		load(name, m.addFile)
	}
	for _, name := range overrides {
		load(name, m.mergeFile)
	}
	if m.Terraform.Backend != nil {
		m.Terraform.Backend.module = m
	}
	if m.Terraform.Encryption != nil {
		m.Terraform.Encryption.module = m
	}
	return m, diag.FromHCL(hdiags).Append(m.checkActionTriggers()).Append(m.importProviderProblems())
}

// parseFile parses one configuration file; the body is nil when the file
// could not be parsed at all.
func parseFile(name string, src []byte) (hcl.Body, hcl.Diagnostics) {
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		file, diags = hcljson.Parse(src, name)
	} else {
		file, diags = parseNative(src, name)
	}
	if file == nil {
		return nil, diags
	}
	return file.Body, diags
}

// configFileExt returns the configuration file suffix of name (".tf",
// ".tf.json", ".tofu" or ".tofu.json"), or "" when it has none.
func configFileExt(name string) string {
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

func isConfigFile(name string) bool { return configFileExt(name) != "" }

// preferTofuFiles returns the sorted names without each ".tf" or ".tf.json"
// file whose ".tofu" or ".tofu.json" alternative is among them, as OpenTofu
// loads only the latter.
func preferTofuFiles(names []string) []string {
	out := names[:0:0]
	for _, name := range names {
		ext := configFileExt(name)
		if ext == ".tf" || ext == ".tf.json" {
			alt := strings.TrimSuffix(name, ext) + strings.Replace(ext, ".tf", ".tofu", 1)
			if _, found := slices.BinarySearch(names, alt); found {
				continue
			}
		}
		out = append(out, name)
	}
	return out
}

func isIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// isOverrideFile reports whether path names an override file: its base
// name without the configuration suffix is "override" or ends in
// "_override".
func isOverrideFile(path string) bool {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, configFileExt(base))
	return base == "override" || strings.HasSuffix(base, "_override")
}

// topLevelRequiredProviders is the error about a required_providers block
// written outside a terraform block.
func topLevelRequiredProviders(block *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid required_providers block",
		Detail:   "A \"required_providers\" block must be nested inside a \"terraform\" block.",
		Subject:  block.TypeRange.Ptr(),
	}
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
			diags = append(diags, topLevelRequiredProviders(block))
		case "provider":
			p, pDiags := decodeProviderBlock(block)
			diags = append(diags, pDiags...)
			if p != nil {
				diags = append(diags, m.addProvider(p)...)
			}
		case "variable":
			v, vDiags := decodeVariableBlock(block)
			diags = append(diags, vDiags...)
			diags = append(diags, m.addVariable(v)...)
		case "locals":
			locals, lDiags := decodeLocalsBlock(block)
			diags = append(diags, lDiags...)
			diags = append(diags, m.addLocals(locals)...)
		case "output":
			o, oDiags := decodeOutputBlock(block, false)
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
			mc, mDiags := decodeModuleBlock(block, false)
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
			r, rDiags := decodeResourceBlock(block, addrs.Managed, false)
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
			r, rDiags := decodeResourceBlock(block, addrs.Data, false)
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
		case "ephemeral":
			r, rDiags := decodeResourceBlock(block, addrs.Ephemeral, false)
			diags = append(diags, rDiags...)
			if existing, ok := m.EphemeralResources[r.Addr]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate ephemeral %q configuration", existing.Addr.Type),
					Detail:   fmt.Sprintf("A %s ephemeral resource named %q was already declared at %s. Resource names must be unique per type in each module.", existing.Addr.Type, existing.Addr.Name, existing.DeclRange),
					Subject:  r.DeclRange.Ptr(),
				})
				continue
			}
			m.EphemeralResources[r.Addr] = r
		case "moved":
			mv, mDiags := decodeMovedBlock(block)
			diags = append(diags, mDiags...)
			if mv != nil {
				m.Moved = append(m.Moved, mv)
			}
		case "action":
			a, aDiags := decodeActionBlock(block)
			diags = append(diags, aDiags...)
			if existing, dup := m.Actions[a.Addr]; dup {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate action %q configuration", existing.Addr.Type),
					Detail:   fmt.Sprintf("An action named %q was already declared at %s. Action names must be unique per type in each module.", existing.Addr.Name, existing.DeclRange),
					Subject:  a.DeclRange.Ptr(),
				})
			} else {
				m.Actions[a.Addr] = a
			}
		case "removed":
			rm, rDiags := decodeRemovedBlock(block)
			diags = append(diags, rDiags...)
			if rm != nil {
				m.Removed = append(m.Removed, rm)
			}
		case "import":
			imp, iDiags := decodeImportBlock(block)
			diags = append(diags, iDiags...)
			if imp != nil {
				m.Imports = append(m.Imports, imp)
			}
		case "check":
			c, cDiags := decodeCheckBlock(block)
			diags = append(diags, cDiags...)
			diags = append(diags, m.addCheck(c)...)
		case "language":
			vc, lDiags := decodeLanguageBlock(block, false)
			diags = append(diags, lDiags...)
			if vc != nil {
				m.Terraform.CompatibleWith = append(m.Terraform.CompatibleWith, vc)
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
	for _, pm := range tb.providerMetas {
		diags = append(diags, t.addProviderMeta(pm)...)
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

// addVariable adds a variable block, unless one of the same name was
// declared before.
func (m *Module) addVariable(v *Variable) hcl.Diagnostics {
	if existing, ok := m.Variables[v.Name]; ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Duplicate variable declaration",
			Detail:   fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within a module.", existing.Name, existing.DeclRange),
			Subject:  v.DeclRange.Ptr(),
		}}
	}
	m.Variables[v.Name] = v
	return nil
}

// addLocals adds the local values of a locals block, in name order,
// except those of a name defined before.
func (m *Module) addLocals(locals []*Local) hcl.Diagnostics {
	var diags hcl.Diagnostics
	sortLocals(locals)
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

// sortLocals puts the values of one locals block in source order.
func sortLocals(locals []*Local) {
	sort.Slice(locals, func(i, j int) bool { return locals[i].DeclRange.Start.Byte < locals[j].DeclRange.Start.Byte })
}

func (t *Terraform) addProviderMeta(pm *ProviderMeta) hcl.Diagnostics {
	if existing, ok := t.ProviderMetas[pm.Provider]; ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Duplicate provider_meta block",
			Detail:   fmt.Sprintf("A provider_meta block for provider %q was already declared at %s. Providers may only have one provider_meta block per module.", existing.Provider, existing.DeclRange),
			Subject:  pm.DeclRange.Ptr(),
		}}
	}
	t.ProviderMetas[pm.Provider] = pm
	return nil
}
