package workdir

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/backend"
	httpbackend "github.com/rig-iac/rig/internal/backend/http"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/backend/pg"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/version"
)

// backendRecordPath is where `rig init` records the backend it configured,
// in the format Terraform uses for .terraform/terraform.tfstate (in
// TF_DATA_DIR when it is set).
func (d *Dir) backendRecordPath() string { return d.DataPath("terraform.tfstate") }

// backendSpec is a backend's effective configuration: its type and the
// settings given explicitly (in the block, or with -backend-config), as
// strings ("true"/"false" for booleans). Settings left out take their
// defaults (for pg, from the PG_* environment variables) when the backend
// is built, so those are read afresh by every command.
type backendSpec struct {
	Type     string
	Settings map[string]string
	// Hash identifies the backend block as written in the configuration,
	// without -backend-config values, in Form; 0 for no block.
	Hash uint64
	// Form is whose hash Hash is (backendhash.go); 0 in a spec read from a
	// record, where any form is accepted.
	Form backendHashForm
	// block holds the settings of the backend block alone, without
	// -backend-config values, for a spec made from the configuration.
	block map[string]string
	// Implicit marks the default local backend of a configuration with no
	// backend block.
	Implicit bool
}

func implicitLocal() backendSpec {
	return backendSpec{Type: "local", Settings: map[string]string{}, Implicit: true}
}

func (s backendSpec) same(o backendSpec) bool {
	return s.Type == o.Type && maps.Equal(s.Settings, o.Settings)
}

// backendSettings lists each backend type's settings and whether each is a
// boolean.
var backendSettings = map[string]map[string]bool{
	"local": {"path": false, "workspace_dir": false},
	"pg":    pgSettings(),
	"http":  httpSettings(),
	"s3":    s3Settings(),
}

func pgSettings() map[string]bool {
	m := map[string]bool{}
	for name := range pg.EnvVars {
		m[name] = pg.BoolSettings[name]
	}
	return m
}

// backendRecord is the JSON of .terraform/terraform.tfstate.
type backendRecord struct {
	Version          int    `json:"version"`
	TerraformVersion string `json:"terraform_version"`
	Backend          *struct {
		Type   string         `json:"type"`
		Config map[string]any `json:"config"`
		Hash   uint64         `json:"hash"`
	} `json:"backend,omitempty"`
}

// readBackendRecord returns the recorded backend, or ok false when none is
// recorded.
func (d *Dir) readBackendRecord() (spec backendSpec, ok bool, err error) {
	backendRecordPath := d.backendRecordPath()
	data, err := os.ReadFile(backendRecordPath)
	if errors.Is(err, fs.ErrNotExist) {
		return spec, false, nil
	}
	if err != nil {
		return spec, false, err
	}
	var rec backendRecord
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil {
		return spec, false, fmt.Errorf("reading %s: %w", backendRecordPath, err)
	}
	if rec.Backend == nil || rec.Backend.Type == "" {
		return spec, false, nil
	}
	spec = backendSpec{Type: rec.Backend.Type, Settings: map[string]string{}, Hash: rec.Backend.Hash}
	for k, v := range rec.Backend.Config {
		s, ok, err := recordString(v, settingType(rec.Backend.Type, k))
		if err != nil {
			return spec, false, fmt.Errorf("reading %s: setting %q: %w", backendRecordPath, k, err)
		}
		if ok {
			spec.Settings[k] = s
		}
	}
	return spec, true, nil
}

// writeBackendRecord records spec, or removes the record for the implicit
// local backend.
func (d *Dir) writeBackendRecord(spec backendSpec) error {
	backendRecordPath := d.backendRecordPath()
	if spec.Implicit {
		if err := os.Remove(backendRecordPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	rec := backendRecord{Version: 3, TerraformVersion: version.Terraform}
	rec.Backend = &struct {
		Type   string         `json:"type"`
		Config map[string]any `json:"config"`
		Hash   uint64         `json:"hash"`
	}{Type: spec.Type, Config: map[string]any{}, Hash: spec.Hash}
	form := spec.Form
	if form == 0 {
		form = preferredForm(spec.Type, spec.Settings, spec.Settings)
	}
	for name := range formSettings(form, spec.Type) {
		if v, ok := spec.Settings[name]; ok {
			rv, err := recordValue(form, spec.Type, name, v)
			if err != nil {
				return err
			}
			rec.Backend.Config[name] = rv
		} else {
			rec.Backend.Config[name] = nil
		}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(backendRecordPath), 0o755); err != nil {
		return err
	}
	// The record may hold a password in conn_str: readable by its owner only.
	tmp := backendRecordPath + ".tmp"
	// Terraform ends the file without a newline; so does rig, byte for byte.
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, backendRecordPath)
}

// blockSpec evaluates a backend block's settings.
func blockSpec(b *config.Backend) (backendSpec, diag.Diagnostics) {
	schema, ok := backendSettings[b.Type]
	if !ok {
		summary, detail := unknownBackendType(b.Type)
		return backendSpec{}, diag.Diagnostics{diag.At(b.TypeRange, summary, detail)}
	}
	attrs, hds := b.Config.JustAttributes()
	ds := diag.FromHCL(objectBlocksHint(b, hds))
	spec := backendSpec{Type: b.Type, Settings: map[string]string{}}
	for name, attr := range attrs {
		if _, known := schema[name]; !known {
			ds = ds.Append(diag.At(attr.NameRange, "Unsupported argument", fmt.Sprintf("The %s backend has no setting named %q.", b.Type, name)))
			continue
		}
		v, more := b.StaticValue(attr.Expr)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		s, err := settingString(v, settingType(b.Type, name))
		if err != nil {
			ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid backend setting", fmt.Sprintf("The %q setting of the %s backend %s.", name, b.Type, err)))
			continue
		}
		spec.Settings[name] = s
	}
	spec.block = maps.Clone(spec.Settings)
	return spec.withForm(0), ds
}

// specHash hashes a spec's type and settings as rig's first records did
// (hashRigLegacy).
func specHash(spec backendSpec) uint64 {
	var sb strings.Builder
	sb.WriteString(spec.Type)
	for _, k := range slices.Sorted(maps.Keys(spec.Settings)) {
		fmt.Fprintf(&sb, "\n%s=%s", k, spec.Settings[k])
	}
	return uint64(crc32.ChecksumIEEE([]byte(sb.String())))
}

// applyBackendConfigFlags merges -backend-config values into spec, in
// order, later ones winning as in Terraform: "KEY=VALUE", or the path of a
// file of attributes (HCL, or JSON when it ends in .json).
func applyBackendConfigFlags(spec backendSpec, flags []string) (backendSpec, diag.Diagnostics) {
	var ds diag.Diagnostics
	schema := backendSettings[spec.Type]
	settings := maps.Clone(spec.Settings)
	set := func(name, value string, rng *hcl.Range) {
		if _, ok := schema[name]; !ok {
			d := diag.Errorf("Invalid backend configuration argument", "The backend configuration argument %q given on the command line is not expected for the selected backend type %q.", name, spec.Type)
			if rng != nil {
				d = diag.At(*rng, d.Summary, d.Detail)
			}
			ds = ds.Append(d)
			return
		}
		v, err := parseSetting(value, settingType(spec.Type, name))
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid backend configuration argument", "The value for %q %s.", name, err))
			return
		}
		settings[name] = v
	}
	for _, f := range flags {
		if name, value, ok := strings.Cut(f, "="); ok {
			set(strings.TrimSpace(name), value, nil)
			continue
		}
		p := hclparse.NewParser()
		var file *hcl.File
		var hds hcl.Diagnostics
		if strings.HasSuffix(f, ".json") {
			file, hds = p.ParseJSONFile(f)
		} else {
			file, hds = p.ParseHCLFile(f)
		}
		ds = ds.Append(diag.FromHCL(hds))
		if hds.HasErrors() {
			continue
		}
		attrs, hds := file.Body.JustAttributes()
		ds = ds.Append(diag.FromHCL(hds))
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			attr := attrs[name]
			v, more := attr.Expr.Value(nil)
			ds = ds.Append(diag.FromHCL(more))
			if more.HasErrors() {
				continue
			}
			s, err := settingString(v, settingType(spec.Type, name))
			if err != nil && schema != nil {
				if _, known := schema[name]; known {
					ds = ds.Append(diag.At(attr.Expr.Range(), "Invalid backend setting", fmt.Sprintf("The %q setting %s.", name, err)))
					continue
				}
			}
			rng := attr.NameRange
			set(name, s, &rng)
		}
	}
	spec.Settings = settings
	return spec, ds
}

// configuredSpec is the backend the configuration selects, before init's
// -backend-config values.
func configuredSpec(cfg *config.Module) (backendSpec, *config.Backend, diag.Diagnostics) {
	if cfg == nil || cfg.Terraform == nil || cfg.Terraform.Backend == nil {
		return implicitLocal(), nil, nil
	}
	spec, ds := blockSpec(cfg.Terraform.Backend)
	return spec, cfg.Terraform.Backend, ds
}

// BackendType is the type of backend the configuration selects: its
// backend block's, else "local".
func BackendType(cfg *config.Module) string {
	if cfg == nil || cfg.Terraform == nil || cfg.Terraform.Backend == nil {
		return "local"
	}
	return cfg.Terraform.Backend.Type
}

// resolveBackend returns the backend for every command but init: the one
// rig init recorded, while the configuration's backend block is the one
// it was recorded for; a configuration without a backend block that init
// never saw works without init. As in OpenTofu, any other difference
// between the configuration and the record (a backend block, a local one
// too, that init never saw; one removed, or changed) asks for init.
func (d *Dir) resolveBackend(cfg *config.Module) (backend.Backend, diag.Diagnostics) {
	if cloudBlock(cfg) != nil {
		return nil, diag.Diagnostics{cloudInitRequired()}
	}
	want, block, ds := configuredSpec(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	rec, recorded, err := d.readBackendRecord()
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to read the backend configuration", "%s", err))
	}
	switch {
	case recorded && block == nil:
		return nil, ds.Append(diag.Errorf("Backend initialization required, please run \"rig init\"",
			"Reason: the configuration no longer has the %q backend that \"rig init\" configured.\n\n%s", rec.Type, backendInitAdvice))
	case recorded && !isRecordedFor(rec, want):
		reason := "its configuration changed"
		if rec.Type != want.Type {
			reason = fmt.Sprintf("its type changed from %q to %q", rec.Type, want.Type)
		}
		return nil, ds.Append(diag.Errorf("Backend initialization required: please run \"rig init\"",
			"Reason: the backend block changed since \"rig init\" configured it: %s.\n\n%s", reason, backendInitAdvice))
	case recorded:
		want = rec
	case block != nil:
		return nil, ds.Append(diag.Errorf("Backend initialization required, please run \"rig init\"",
			"Reason: the configuration selects the %q backend, which \"rig init\" has not initialized in this working directory.\n\n%s", want.Type, backendInitAdvice))
	}
	b, more := d.openBackend(context.Background(), want)
	return b, ds.Append(more)
}

// backendInitAdvice ends the errors that ask for init before a backend is
// used.
const backendInitAdvice = `Every command but init uses the backend "rig init" last configured, so that state is never read from or written to a backend nobody initialized. Run "rig init": with -migrate-state it moves the existing state to the backend the configuration now selects, with -reconfigure it uses that backend without moving anything. Nothing has been changed yet.`

func isRecordedFor(rec, want backendSpec) bool {
	_, ok := rec.recordedFor(want)
	return ok
}

// openBackend builds the backend a spec describes; pg connects and prepares
// its tables.
func (d *Dir) openBackend(ctx context.Context, spec backendSpec) (backend.Backend, diag.Diagnostics) {
	switch spec.Type {
	case "local":
		return local.New(d.root, local.Options{Path: spec.Settings["path"], WorkspaceDir: spec.Settings["workspace_dir"]}), nil
	case "http":
		cfg, err := httpbackend.ConfigFromSettings(spec.Settings, os.Getenv)
		if err != nil {
			return nil, diag.Diagnostics{diag.Errorf("Invalid http backend configuration", "%s", err)}
		}
		b, err := httpbackend.New(cfg)
		if err != nil {
			return nil, diag.Diagnostics{diag.Errorf("Failed to configure the http backend", "%s", err)}
		}
		return b, nil
	case "s3":
		return openS3(ctx, spec)
	case "pg":
		cfg, err := pg.ConfigFromSettings(spec.Settings, os.Getenv)
		if err != nil {
			return nil, diag.Diagnostics{diag.Errorf("Invalid pg backend configuration", "%s", err)}
		}
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		b, err := pg.New(ctx, cfg)
		if err != nil {
			return nil, diag.Diagnostics{diag.Errorf("Failed to configure the pg backend", "%s", err)}
		}
		return b, nil
	}
	summary, detail := unknownBackendType(spec.Type)
	return nil, diag.Diagnostics{diag.Errorf(summary, "%s", detail)}
}

// objectBlocksHint rewrites the error about a block in a backend block
// whose name is an object setting (s3's endpoints, assume_role): such a
// setting is an argument, written with an equals sign, as Terraform says.
func objectBlocksHint(b *config.Backend, hds hcl.Diagnostics) hcl.Diagnostics {
	body, ok := b.Config.(*hclsyntax.Body)
	if !ok {
		return hds
	}
	for _, blk := range body.Blocks {
		if !settingType(b.Type, blk.Type).IsObjectType() {
			continue
		}
		for _, d := range hds {
			if d.Subject != nil && d.Subject.Start == blk.TypeRange.Start {
				d.Summary = "Unsupported block type"
				d.Detail = fmt.Sprintf("Blocks of type %q are not expected here. Did you mean to define argument %q? If so, use the equals sign to assign it a value: %s = { … }.", blk.Type, blk.Type, blk.Type)
			}
		}
	}
	return hds
}
