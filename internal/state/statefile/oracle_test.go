package statefile

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// referenceMarshal encodes s the way OpenTofu's writer does: the file's
// structs with OpenTofu's field tags, sorted as OpenTofu sorts them, then
// json.MarshalIndent and a newline. Marshal must agree with it byte for byte;
// it is slow and exists only as the tests' oracle.
func referenceMarshal(t testing.TB, s *state.State) []byte {
	t.Helper()
	type outputRef struct {
		Value     json.RawMessage `json:"value"`
		Type      json.RawMessage `json:"type"`
		Sensitive bool            `json:"sensitive,omitempty"`
	}
	type instanceRef struct {
		IndexKey              any               `json:"index_key,omitempty"`
		Status                string            `json:"status,omitempty"`
		Deposed               string            `json:"deposed,omitempty"`
		Provider              string            `json:"provider,omitempty"`
		SchemaVersion         uint64            `json:"schema_version"`
		AttributesRaw         json.RawMessage   `json:"attributes,omitempty"`
		AttributesFlat        map[string]string `json:"attributes_flat,omitempty"`
		SensitivePaths        json.RawMessage   `json:"sensitive_attributes,omitempty"`
		IdentitySchemaVersion *uint64           `json:"identity_schema_version,omitempty"`
		IdentityRaw           json.RawMessage   `json:"identity,omitempty"`
		PrivateRaw            []byte            `json:"private,omitempty"`
		Dependencies          []string          `json:"dependencies,omitempty"`
		CreateBeforeDestroy   bool              `json:"create_before_destroy,omitempty"`
	}
	type resourceRef struct {
		Module    string        `json:"module,omitempty"`
		Mode      string        `json:"mode"`
		Type      string        `json:"type"`
		Name      string        `json:"name"`
		Provider  string        `json:"provider,omitempty"`
		Instances []instanceRef `json:"instances"`
	}
	type fileRef struct {
		Version          int                  `json:"version"`
		TerraformVersion string               `json:"terraform_version"`
		Serial           uint64               `json:"serial"`
		Lineage          string               `json:"lineage"`
		Outputs          map[string]outputRef `json:"outputs"`
		Resources        []resourceRef        `json:"resources"`
		CheckResults     json.RawMessage      `json:"check_results"`
	}
	f := fileRef{Version: 4, TerraformVersion: s.TerraformVersion, Serial: s.Serial, Lineage: s.Lineage,
		Outputs: map[string]outputRef{}, Resources: []resourceRef{}, CheckResults: s.CheckResults}
	if f.CheckResults == nil {
		f.CheckResults = json.RawMessage("null")
	}
	for name, o := range s.Outputs {
		v, err := ctyjson.Marshal(o.Value, o.Value.Type())
		if err != nil {
			t.Fatal(err)
		}
		ty, err := ctyjson.MarshalType(o.Value.Type())
		if err != nil {
			t.Fatal(err)
		}
		f.Outputs[name] = outputRef{Value: v, Type: ty, Sensitive: o.Sensitive}
	}
	for _, r := range s.Resources {
		rr := resourceRef{Module: string(r.Addr.Module), Mode: r.Addr.Resource.Mode.String(), Type: r.Addr.Resource.Type,
			Name: r.Addr.Resource.Name, Instances: []instanceRef{}}
		// As OpenTofu: the provider per instance when an instance has a
		// provider instance key, else the resource's.
		perInstance := false
		for _, inst := range r.Instances {
			perInstance = perInstance || !inst.ProviderKey.IsNone()
		}
		if !r.ProviderConfig.Provider.IsZero() && !perInstance {
			rr.Provider = r.ProviderConfig.String()
		}
		for k, inst := range r.Instances {
			add := func(dk addrs.DeposedKey, o *state.Object) {
				ir := instanceRef{Deposed: string(dk), SchemaVersion: o.SchemaVersion, AttributesRaw: o.AttrsJSON,
					AttributesFlat: o.AttrsFlat, SensitivePaths: o.SensitiveAttributes,
					IdentitySchemaVersion: o.IdentitySchemaVersion, IdentityRaw: o.IdentityJSON,
					PrivateRaw: o.Private, CreateBeforeDestroy: o.CreateBeforeDestroy}
				if perInstance {
					ir.Provider = r.ProviderConfig.Instance(inst.ProviderKey).String()
				}
				switch {
				case k.IsInt():
					ir.IndexKey = k.Int()
				case k.IsString():
					ir.IndexKey = k.Str()
				}
				if o.Status == state.Tainted {
					ir.Status = "tainted"
				}
				if ir.SensitivePaths == nil {
					ir.SensitivePaths = json.RawMessage("[]")
				}
				for _, d := range o.Dependencies {
					ir.Dependencies = append(ir.Dependencies, d.String())
				}
				rr.Instances = append(rr.Instances, ir)
			}
			if inst.Current != nil {
				add(addrs.NotDeposed, inst.Current)
			}
			for dk, o := range inst.Deposed {
				add(dk, o)
			}
		}
		sort.SliceStable(rr.Instances, func(i, j int) bool {
			ki, kj := rr.Instances[i].IndexKey, rr.Instances[j].IndexKey
			if ki != kj {
				if (ki == nil) != (kj == nil) {
					return ki == nil
				}
				if a, ok := ki.(int); ok {
					if b, ok := kj.(int); ok {
						return a < b
					}
					return true
				}
				if a, ok := ki.(string); ok {
					if b, ok := kj.(string); ok {
						return a < b
					}
					return true
				}
			}
			return rr.Instances[i].Deposed < rr.Instances[j].Deposed
		})
		f.Resources = append(f.Resources, rr)
	}
	sort.SliceStable(f.Resources, func(i, j int) bool {
		a, b := f.Resources[i], f.Resources[j]
		switch {
		case a.Module != b.Module:
			return a.Module < b.Module
		case a.Mode != b.Mode:
			return a.Mode < b.Mode
		case a.Type != b.Type:
			return a.Type < b.Type
		}
		return a.Name < b.Name
	})
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		t.Fatalf("reference encoder: %v", err)
	}
	return append(out, '\n')
}
