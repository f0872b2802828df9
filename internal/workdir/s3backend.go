package workdir

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/s3"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// s3Settings is the s3 entry of backendSettings: every setting of the
// union schema, and whether it is a boolean.
func s3Settings() map[string]bool {
	m := make(map[string]bool, len(s3.Schema))
	for name, t := range s3.Schema {
		m[name] = t == cty.Bool
	}
	return m
}

// s3ConfigFromSettings builds an s3.Config from a spec's settings, taking
// defaults from the environment as Terraform does, and validates it; its
// problems are diagnostics.
func s3ConfigFromSettings(settings map[string]string, getenv func(string) string) (s3.Config, diag.Diagnostics) {
	cfg, problems := s3.ConfigFromSettings(settings, getenv)
	var ds diag.Diagnostics
	for _, p := range problems {
		detail := p.Detail
		if p.Path != "" {
			detail = fmt.Sprintf("The %q setting: %s", p.Path, p.Detail)
		}
		if p.Warning {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: p.Summary, Detail: detail})
		} else {
			ds = ds.Append(diag.Errorf(p.Summary, "%s", detail))
		}
	}
	return cfg, ds
}

// openS3 builds the s3 backend a spec describes.
func openS3(ctx context.Context, spec backendSpec) (backend.Backend, diag.Diagnostics) {
	cfg, ds := s3ConfigFromSettings(spec.Settings, os.Getenv)
	if ds.HasErrors() {
		return nil, ds
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	b, err := s3.New(ctx, cfg)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to configure the s3 backend", "%s", err))
	}
	return b, ds
}

// s3FormValue converts a setting's value from the union schema to the
// type of form's schema: attributes of a nested object that the form lacks
// are dropped when null; ok is false when one is set.
func s3FormValue(v cty.Value, t cty.Type) (cty.Value, bool) {
	if !t.IsObjectType() || v.Type().Equals(t) {
		return v, true
	}
	if v.IsNull() {
		return cty.NullVal(t), true
	}
	attrs := map[string]cty.Value{}
	for name, av := range v.AsValueMap() {
		if !t.HasAttribute(name) {
			if !av.IsNull() {
				return cty.NilVal, false
			}
			continue
		}
		attrs[name] = av
	}
	return cty.ObjectVal(attrs), true
}

// typedSettingJSON is the record's JSON for a typed setting in form's type.
// A nested object leaves out the null attributes that the other tool's
// schema lacks (other; cty.NilType when it has no such setting): each tool
// decodes a record's config with its own schema, reading a missing
// attribute as null but failing on one it does not know, so that both
// Terraform and OpenTofu read the record.
func typedSettingJSON(value string, union, form, other cty.Type) (json.RawMessage, error) {
	v, err := ctyjson.Unmarshal([]byte(value), union)
	if err != nil {
		return nil, err
	}
	v, ok := s3FormValue(v, form)
	if !ok {
		return nil, fmt.Errorf("the value %s has attributes the schema lacks", value)
	}
	if !form.IsObjectType() || v.IsNull() || other == cty.NilType || !other.IsObjectType() {
		return ctyjson.Marshal(v, form)
	}
	attrs := map[string]cty.Value{}
	for name, av := range v.AsValueMap() {
		if av.IsNull() && !other.HasAttribute(name) {
			continue
		}
		attrs[name] = av
	}
	v = cty.EmptyObjectVal
	if len(attrs) > 0 {
		v = cty.ObjectVal(attrs)
	}
	return ctyjson.Marshal(v, v.Type())
}
