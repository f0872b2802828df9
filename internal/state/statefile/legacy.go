package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
)

// The state formats before version 4, written by Terraform 0.11 and
// earlier, are read by upgrading them to version 4 as OpenTofu does:
// version 1 (Terraform 0.6.16 and earlier 0.7 releases) to 2, 2 to 3 (map
// sizes in flattened attributes counted with "%" rather than "#") and 3 to
// 4. Attributes stay flattened (attributes_flat): the provider upgrades
// them to its current schema when the object is next planned. Providers
// were unqualified then: they become the legacy namespace "-"
// (registry.terraform.io/-/aws), which init asks to replace
// ("rig state replace-provider -- -/aws hashicorp/aws").

// legacyFile is the layout shared by versions 1 to 3.
type legacyFile struct {
	Version   int             `json:"version"`
	TFVersion string          `json:"terraform_version"`
	Serial    int64           `json:"serial"`
	Lineage   string          `json:"lineage"`
	Modules   []*legacyModule `json:"modules"`
	// Resources is version 4's: a file that holds them under an older
	// version number is refused rather than read as holding nothing.
	Resources json.RawMessage `json:"resources"`
}

type legacyModule struct {
	Path []string `json:"path"`
	// Outputs are objects {"sensitive", "type", "value"}, or in version 1
	// bare strings.
	Outputs   map[string]json.RawMessage `json:"outputs"`
	Resources map[string]*legacyResource `json:"resources"`
}

type legacyResource struct {
	Type     string            `json:"type"`
	Primary  *legacyInstance   `json:"primary"`
	Deposed  []*legacyInstance `json:"deposed"`
	Provider string            `json:"provider"`
}

type legacyInstance struct {
	ID         string                     `json:"id"`
	Attributes map[string]string          `json:"attributes"`
	Meta       map[string]json.RawMessage `json:"meta"`
	Tainted    bool                       `json:"tainted"`
}

type legacyOutput struct {
	Sensitive bool            `json:"sensitive"`
	Value     json.RawMessage `json:"value"`
}

// legacyVersion reports whether raw, a file's "version", is one of the
// formats before version 4 that rig upgrades.
func legacyVersion(raw json.RawMessage) (int, bool) {
	v, err := strconv.Atoi(string(raw))
	return v, err == nil && v >= 1 && v <= 3
}

// parseLegacy decodes a state file of format version 1, 2 or 3 as the
// version-4 state it upgrades to.
func parseLegacy(data []byte, version int) (*fileV4, error) {
	var old legacyFile
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("state file version %d: %w", version, jsonError(data, err))
	}
	if r := string(old.Resources); r != "" && r != "null" {
		return nil, fmt.Errorf("state file version %d holds the resources of a version 4 file, which it cannot hold; its version number is wrong", version)
	}
	f, err := upgradeLegacy(&old)
	if err != nil {
		return nil, fmt.Errorf("upgrading state file format from version %d to version 4: %w", version, err)
	}
	return f, nil
}

func upgradeLegacy(old *legacyFile) (*fileV4, error) {
	if old.Serial < 0 {
		return nil, errors.New("state has a serial less than zero")
	}
	f := &fileV4{
		Version:          json.RawMessage("4"),
		TerraformVersion: old.TFVersion,
		Serial:           uint64(old.Serial),
		Lineage:          old.Lineage,
		Outputs:          map[string]outputV4{},
	}
	if f.TerraformVersion == "" {
		// Required since version 4: a version older than any that wrote it.
		f.TerraformVersion = "0.0.0"
	}
	for _, m := range old.Modules {
		if m == nil {
			continue
		}
		path := m.Path
		if old.Version == 1 && len(path) == 0 {
			path = []string{"root"}
		}
		module, err := legacyModulePath(path)
		if err != nil {
			return nil, err
		}
		resources, err := upgradeResources(m, module, old.Version)
		if err != nil {
			return nil, err
		}
		f.Resources = append(f.Resources, resources...)
		if module != "" {
			continue // only the root module's outputs are kept
		}
		for name, raw := range m.Outputs {
			o, err := upgradeOutput(raw, old.Version)
			if err != nil {
				return nil, fmt.Errorf("output %q: %w", name, err)
			}
			f.Outputs[name] = o
		}
	}
	return f, nil
}

// legacyModulePath turns ["root", "net", "subnet"] into module.net.module.subnet.
func legacyModulePath(path []string) (string, error) {
	if len(path) == 0 || path[0] != "root" {
		return "", fmt.Errorf("state contains an invalid module path %q", path)
	}
	var b strings.Builder
	for _, name := range path[1:] {
		if !hclsyntax.ValidIdentifier(name) {
			return "", fmt.Errorf("state contains an invalid module path %q: %q is not a valid name; rename the module with Terraform 0.11 before upgrading", path, name)
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module." + name)
	}
	return b.String(), nil
}

// upgradeResources turns a module's legacy resources, each of which is one
// instance ("aws_instance.web.1"), into version-4 resources with their
// instances, in the order of their addresses.
func upgradeResources(m *legacyModule, module string, version int) ([]resourceV4, error) {
	var out []resourceV4
	byAddr := map[addrs.Resource]int{}
	for _, key := range slices.Sorted(mapKeys(m.Resources)) {
		rs := m.Resources[key]
		if rs == nil {
			continue
		}
		addr, err := parseLegacyInstance(key)
		if err != nil {
			return nil, err
		}
		at := addrs.ModuleInstance(module)
		i, ok := byAddr[addr.Resource]
		if !ok {
			// The provider is the resource's: that of its first instance.
			provider, err := legacyProvider(rs.Provider, module, addr.Resource)
			if err != nil {
				return nil, fmt.Errorf("resource %s: %w", addr.Resource.Absolute(at), err)
			}
			mode := "managed"
			if addr.Resource.Mode == addrs.Data {
				mode = "data"
			}
			out = append(out, resourceV4{Module: module, Mode: mode, Type: addr.Resource.Type, Name: addr.Resource.Name, Provider: provider})
			i = len(out) - 1
			byAddr[addr.Resource] = i
		}
		var index json.RawMessage
		if addr.Key.IsInt() {
			index = json.RawMessage(strconv.Itoa(addr.Key.Int()))
		}
		if rs.Primary != nil {
			is, err := upgradeInstance(rs.Primary, index, "", version)
			if err != nil {
				return nil, fmt.Errorf("resource instance %s: %w", addr, err)
			}
			out[i].Instances = append(out[i].Instances, is)
		}
		for n, old := range rs.Deposed {
			if old == nil {
				continue
			}
			// Sequential deposed keys, so that the upgrade is deterministic.
			is, err := upgradeInstance(old, index, fmt.Sprintf("%08x", n+1), version)
			if err != nil {
				return nil, fmt.Errorf("resource instance %s: deposed object %d: %w", addr, n, err)
			}
			out[i].Instances = append(out[i].Instances, is)
		}
	}
	return out, nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// parseLegacyInstance parses a legacy resource key: TYPE.NAME,
// TYPE.NAME.INDEX, data.TYPE.NAME or data.TYPE.NAME.INDEX.
func parseLegacyInstance(s string) (addrs.ResourceInstance, error) {
	var ri addrs.ResourceInstance
	parts := strings.Split(s, ".")
	ri.Resource.Mode = addrs.Managed
	if len(parts) > 2 && parts[0] == "data" {
		ri.Resource.Mode = addrs.Data
		parts = parts[1:]
	}
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || parts[1] == "" {
		return ri, fmt.Errorf("state contains an invalid resource address %q", s)
	}
	ri.Resource.Type, ri.Resource.Name, ri.Key = parts[0], parts[1], addrs.NoKey
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 {
			return ri, fmt.Errorf("state contains an invalid resource address %q: the index must be a whole number", s)
		}
		ri.Key = addrs.IntKey(n)
	}
	return ri, nil
}

// legacyProvider turns a legacy provider reference into a version-4
// provider configuration address in the legacy namespace: provider.aws,
// provider.aws.west and module.net.provider.aws name it absolutely; aws
// and aws.west name one of the resource's module; none means the default
// configuration of the provider the resource type implies.
func legacyProvider(s, module string, r addrs.Resource) (string, error) {
	pc := addrs.AbsProviderConfig{Module: addrs.ModuleInstance(module)}
	local := s
	if i := strings.Index(s, "provider."); i >= 0 && (i == 0 || s[i-1] == '.') {
		pc.Module = addrs.ModuleInstance(strings.TrimSuffix(s[:i], "."))
		if pc.Module != "" {
			if err := checkLegacyModuleAddr(string(pc.Module)); err != nil {
				return "", fmt.Errorf("invalid provider configuration reference %q", s)
			}
		}
		local = s[i+len("provider."):]
	}
	if local == "" {
		local = r.ImpliedProviderType()
	}
	typ, alias, _ := strings.Cut(local, ".")
	if strings.Contains(local, "${") {
		return "", fmt.Errorf("invalid provider configuration reference %q: an alias cannot hold a template sequence; rename the provider alias and apply the change with Terraform 0.11 before upgrading", s)
	}
	if !hclsyntax.ValidIdentifier(typ) || (alias != "" && !hclsyntax.ValidIdentifier(alias)) {
		return "", fmt.Errorf("invalid provider configuration reference %q", s)
	}
	pc.Provider = addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "-", Type: typ}
	pc.Alias = alias
	return pc.String(), nil
}

// checkLegacyModuleAddr checks a module path written module.a.module.b.
func checkLegacyModuleAddr(s string) error {
	parts := strings.Split(s, ".")
	if len(parts)%2 != 0 {
		return fmt.Errorf("invalid module address %q", s)
	}
	for i := 0; i < len(parts); i += 2 {
		if parts[i] != "module" || !hclsyntax.ValidIdentifier(parts[i+1]) {
			return fmt.Errorf("invalid module address %q", s)
		}
	}
	return nil
}

// upgradeInstance turns a legacy instance object into a version-4 one: the
// provider SDK's schema_version in meta becomes the object's schema
// version, the rest of meta its private data, and a first-class id the id
// attribute when there is none.
func upgradeInstance(old *legacyInstance, index json.RawMessage, deposed string, version int) (instanceV4, error) {
	is := instanceV4{IndexKey: index, Deposed: deposed}
	if old.Tainted {
		is.Status = "tainted"
	}
	attrs := make(map[string]string, len(old.Attributes)+1)
	for k, v := range old.Attributes {
		attrs[k] = v
	}
	if version < 3 {
		upgradeMapCounts(attrs)
	}
	if old.ID != "" && attrs["id"] == "" {
		attrs["id"] = old.ID
	}
	is.AttributesFlat = attrs
	private := map[string]json.RawMessage{}
	for k, v := range old.Meta {
		if k == "schema_version" {
			if n, ok := schemaVersion(v); ok {
				is.SchemaVersion = n
				continue
			}
		}
		private[k] = v
	}
	if len(private) > 0 {
		b, err := json.Marshal(private)
		if err != nil {
			return is, fmt.Errorf("private data: %w", err)
		}
		is.Private = b
	}
	return is, nil
}

// schemaVersion reads the SDK's schema version, a string or a number.
func schemaVersion(raw json.RawMessage) (uint64, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		n, err := strconv.ParseUint(s, 10, 64)
		return n, err == nil
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil && f >= 0 && f < 1<<53 {
		return uint64(f), true
	}
	return 0, false
}

var (
	collectionCount = regexp.MustCompile(`^(.*\.)#$`)
	firstKeyPart    = regexp.MustCompile(`^([^.]+)\.`)
)

// upgradeMapCounts is the version 2 to 3 upgrade of flattened attributes:
// a collection whose keys are not all numbers is a map, whose size is
// counted under PREFIX.% rather than PREFIX.#; an empty collection's count
// is dropped.
func upgradeMapCounts(attrs map[string]string) {
	var prefixes []string
	for k := range attrs {
		if m := collectionCount.FindStringSubmatch(k); m != nil {
			prefixes = append(prefixes, m[1])
		}
	}
	slices.Sort(prefixes)
	for _, prefix := range prefixes {
		keys := map[string]bool{}
		for k := range attrs {
			rest, ok := strings.CutPrefix(k, prefix)
			if !ok || rest == "#" {
				continue
			}
			if m := firstKeyPart.FindStringSubmatch(rest); m != nil {
				rest = m[1]
			}
			keys[rest] = true
		}
		count := prefix + "#"
		numeric := true
		for k := range keys {
			if _, err := strconv.Atoi(k); err != nil {
				numeric = false
			}
		}
		if !numeric {
			attrs[prefix+"%"] = attrs[count]
			delete(attrs, count)
		}
		if len(keys) == 0 {
			delete(attrs, count)
		}
	}
}

// upgradeOutput turns a legacy root output into a version-4 one. Its type
// is implied by its JSON value, with a tuple or object whose elements are
// all of one type taken as a list or map, since the legacy language had
// only strings, lists and maps.
func upgradeOutput(raw json.RawMessage, version int) (outputV4, error) {
	var o legacyOutput
	if version == 1 {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return outputV4{}, fmt.Errorf("version 1 outputs must be strings: %w", err)
		}
		o.Value = raw
	} else if err := json.Unmarshal(raw, &o); err != nil {
		return outputV4{}, err
	}
	if len(o.Value) == 0 {
		o.Value = json.RawMessage("null")
	}
	ty, err := ctyjson.ImpliedType(o.Value)
	if err != nil {
		return outputV4{}, fmt.Errorf("invalid value: %w", err)
	}
	tyJSON, err := ctyjson.MarshalType(simplifyLegacyType(ty))
	if err != nil {
		return outputV4{}, fmt.Errorf("invalid value: %w", err)
	}
	return outputV4{Value: o.Value, Type: tyJSON, Sensitive: o.Sensitive}, nil
}

// simplifyLegacyType takes a tuple of elements of one type for a list and
// an object of attributes of one type for a map, recursively.
func simplifyLegacyType(ty cty.Type) cty.Type {
	var elems []cty.Type
	switch {
	case ty.IsTupleType():
		elems = ty.TupleElementTypes()
	case ty.IsObjectType():
		for _, name := range slices.Sorted(mapKeys(ty.AttributeTypes())) {
			elems = append(elems, ty.AttributeType(name))
		}
	default:
		return ty
	}
	if len(elems) == 0 {
		return ty
	}
	for _, e := range elems[1:] {
		if !e.Equals(elems[0]) {
			return ty
		}
	}
	ety := simplifyLegacyType(elems[0])
	if ty.IsTupleType() {
		return cty.List(ety)
	}
	return cty.Map(ety)
}
