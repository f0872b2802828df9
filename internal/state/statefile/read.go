package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ctyjson"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// ErrEmpty is returned (wrapped) by Parse and Read for input that holds
// nothing but white space. Terraform and OpenTofu treat such a file as "no
// state yet"; callers that want the same check errors.Is(err, ErrEmpty).
var ErrEmpty = errors.New("state file is empty")

// Read reads a whole version-4 state file from r; see Parse.
func Read(r io.Reader) (*state.State, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading state: %w", err)
	}
	return Parse(data)
}

// Parse decodes a version-4 state file. Attributes, sensitive attribute
// paths, identities and check results are kept as compact raw JSON; output
// values are decoded with their recorded types. Parse fails, naming the
// resource, on an invalid address, mode, status, instance key or deposed
// key, and on an object recorded twice. The returned State shares no memory
// with data. A large file's resources are decoded on every processor.
func Parse(data []byte) (*state.State, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, ErrEmpty
	}
	if bytes.HasPrefix(data, []byte("tfstate")) {
		return nil, errors.New("state file is in the binary format of Terraform 0.6 and earlier, which is not supported; upgrade it to the JSON format with Terraform 0.6.16 or earlier first")
	}
	if len(data) >= parallelParseMin {
		if s, ok := parseParallel(data); ok {
			return s, nil
		}
	}
	return parseOnePass(data)
}

// parseOnePass is Parse in one pass of encoding/json over the whole file.
func parseOnePass(data []byte) (*state.State, error) {
	var f fileV4
	if err := json.Unmarshal(data, &f); err != nil {
		if v := sniffVersion(data); v != nil {
			if old, ok := legacyVersion(v); ok {
				return parseLegacyV4(data, old)
			}
			if verr := checkVersion(v); verr != nil {
				return nil, verr
			}
		}
		return nil, jsonError(data, err)
	}
	if old, ok := legacyVersion(f.Version); ok {
		return parseLegacyV4(data, old)
	}
	if err := checkVersion(f.Version); err != nil {
		return nil, err
	}
	return decodeV4(&f)
}

// parseLegacyV4 decodes a state file of a format before version 4 as the
// version-4 state it upgrades to (see legacy.go).
func parseLegacyV4(data []byte, version int) (*state.State, error) {
	f, err := parseLegacy(data, version)
	if err != nil {
		return nil, err
	}
	return decodeV4(f)
}

// sniffVersion extracts the top-level "version" of a document that failed to
// decode as version 4, or nil.
func sniffVersion(data []byte) json.RawMessage {
	var v struct {
		Version json.RawMessage `json:"version"`
	}
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	return v.Version
}

func checkVersion(raw json.RawMessage) error {
	if raw == nil || string(raw) == "null" {
		return errors.New("state file has no version number; it is not a Terraform or OpenTofu state file")
	}
	v, err := strconv.ParseUint(string(raw), 10, 64)
	switch {
	case err != nil:
		return fmt.Errorf("state file has an invalid version number %s", raw)
	case v == 0:
		return errors.New("state file version 0 is not valid: there was never a JSON state format of version zero")
	case v < 4:
		// Upgraded by parseOnePass (legacy.go), not read as version 4.
		return fmt.Errorf("state file version %d is read by upgrading it to version 4", v)
	case v > 4:
		return fmt.Errorf("state file version %d is not supported; it was written by a newer program, and rig reads version 4", v)
	}
	return nil
}

// jsonError turns a decoding error into one that gives the line and column.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("state file is not valid: %w", err)
	}
	if off > 0 {
		off-- // the offset counts the offending byte
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Errorf("state file is not valid JSON at line %d, column %d: %w", line, col, err)
}

// decoder holds what one Parse call shares between resources.
type decoder struct {
	st        *state.State
	modules   map[string]bool                    // module paths already checked
	providers map[string]addrs.AbsProviderConfig // provider addresses already parsed
	deps      map[string]dependency              // dependency addresses already parsed
	// lists holds the dependency lists decoded so far by a hash of their
	// addresses' numbers, so that objects recording the same list (the
	// instances of one resource) share one slice.
	lists     map[uint64][][]addrs.AbsResource
	scratch   []addrs.AbsResource // the list being decoded
	listArena []addrs.AbsResource // the current block of kept lists (keepList)
	arena     []byte              // the current block of compacted raw JSON
	compacted []byte              // raw's buffer
}

// dependency is a parsed dependency address and its number in the decoder.
type dependency struct {
	addr addrs.AbsResource
	n    uint64
}

func decodeV4(f *fileV4) (*state.State, error) {
	d := &decoder{
		st: &state.State{
			Lineage:          f.Lineage,
			Serial:           f.Serial,
			TerraformVersion: f.TerraformVersion,
			Outputs:          make(map[string]state.OutputValue, len(f.Outputs)),
			Resources:        make(map[addrs.AbsResource]*state.Resource, len(f.Resources)),
		},
		modules:   map[string]bool{"": true},
		providers: map[string]addrs.AbsProviderConfig{},
		deps:      map[string]dependency{},
		lists:     map[uint64][][]addrs.AbsResource{},
	}

	for name, o := range f.Outputs {
		v, err := decodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		d.st.Outputs[name] = state.OutputValue{Value: v, Sensitive: o.Sensitive}
	}
	for i := range f.Resources {
		if err := d.resource(&f.Resources[i]); err != nil {
			return nil, err
		}
	}
	if cr := d.raw(f.CheckResults); string(cr) != "null" {
		d.st.CheckResults = cr
	}
	return d.st, nil
}

// decodeOutput decodes an output's value with its recorded type. go-cty
// panics on some malformed types; those become errors.
func decodeOutput(o outputV4) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid type: %v", r)
		}
	}()
	if len(o.Type) == 0 {
		return cty.NilVal, errors.New("no type recorded")
	}
	ty, err := ctyjson.UnmarshalType(o.Type)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid type: %w", err)
	}
	if len(o.Value) == 0 {
		return cty.NilVal, errors.New("no value recorded")
	}
	if v, err = ctyjson.Unmarshal(o.Value, ty); err != nil {
		return cty.NilVal, fmt.Errorf("invalid value: %w", err)
	}
	return v, nil
}

func (d *decoder) resource(rs *resourceV4) error {
	var addr addrs.AbsResource
	addr.Module = addrs.ModuleInstance(rs.Module)
	addr.Resource.Type, addr.Resource.Name = rs.Type, rs.Name
	switch rs.Mode {
	case "managed":
		addr.Resource.Mode = addrs.Managed
	case "data":
		addr.Resource.Mode = addrs.Data
	default:
		return fmt.Errorf("resource %s.%s: invalid mode %q", rs.Type, rs.Name, rs.Mode)
	}
	if rs.Type == "" || rs.Name == "" {
		return fmt.Errorf("resource %q: type and name must not be empty", addr)
	}
	if err := d.checkModule(rs.Module); err != nil {
		return fmt.Errorf("resource %s: %w", addr, err)
	}
	var pc addrs.AbsProviderConfig
	if rs.Provider != "" {
		var err error
		if pc, err = d.provider(rs.Provider); err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
	}
	r := d.st.Resources[addr]
	switch {
	case r == nil:
		r = &state.Resource{Addr: addr, ProviderConfig: pc, Instances: make(map[addrs.InstanceKey]*state.Instance, len(rs.Instances))}
		d.st.Resources[addr] = r
	case r.ProviderConfig != pc && !pc.Provider.IsZero():
		return fmt.Errorf("resource %s: recorded twice with different providers %s and %s", addr, r.ProviderConfig, pc)
	}
	for i := range rs.Instances {
		if err := d.instance(r, &rs.Instances[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkModule accepts only a module instance path in the canonical form
// addrs prints: module.a, module.a["k"].module.b[0].
func (d *decoder) checkModule(m string) error {
	if d.modules[m] {
		return nil
	}
	ri, err := addrs.ParseAbsResourceInstanceStr(m + ".t.n")
	if err != nil || string(ri.Module) != m {
		return fmt.Errorf("invalid module address %q", m)
	}
	d.modules[m] = true
	return nil
}

// instance decodes one object of resource r. An object that records its
// provider configuration instance (provider for_each) sets r's provider
// configuration, which must be the same for every object (and the one r
// records itself, if any), and the instance's ProviderKey.
func (d *decoder) instance(r *state.Resource, is *instanceV4) error {
	key, err := instanceKey(is.IndexKey)
	if err != nil {
		return fmt.Errorf("resource %s: %w", r.Addr, err)
	}
	addr := r.Addr.Instance(key)
	providerKey := addrs.NoKey
	if is.Provider != "" {
		pc, err := d.provider(is.Provider)
		if err != nil {
			return fmt.Errorf("resource instance %s: %w", addr, err)
		}
		switch cfg := pc.Config(); {
		case r.ProviderConfig.Provider.IsZero():
			r.ProviderConfig = cfg
		case r.ProviderConfig != cfg:
			return fmt.Errorf("resource %s: instances recorded with different provider configurations %s and %s", r.Addr, r.ProviderConfig, cfg)
		}
		providerKey = pc.Key
	}
	obj := &state.Object{
		SchemaVersion:         is.SchemaVersion,
		CreateBeforeDestroy:   is.CreateBeforeDestroy,
		SkipDestroy:           is.SkipDestroy,
		PreventDestroy:        is.PreventDestroy,
		IdentitySchemaVersion: is.IdentitySchemaVersion,
	}
	switch is.Status {
	case "":
	case "tainted":
		obj.Status = state.Tainted
	default:
		return fmt.Errorf("resource instance %s: invalid status %q", addr, is.Status)
	}
	switch {
	case is.Attributes != nil:
		obj.AttrsJSON = d.raw(is.Attributes)
	case len(is.AttributesFlat) > 0:
		obj.AttrsFlat = is.AttributesFlat
	default:
		obj.AttrsJSON = json.RawMessage("{}")
	}
	obj.SensitiveAttributes = d.raw(is.SensitiveAttributes)
	if s := string(obj.SensitiveAttributes); s == "[]" || s == "null" {
		obj.SensitiveAttributes = nil
	}
	obj.IdentityJSON = d.raw(is.Identity)
	if len(is.Private) > 0 {
		obj.Private = is.Private
	}
	if obj.Dependencies, err = d.dependencies(is.Dependencies); err != nil {
		return fmt.Errorf("resource instance %s: dependencies: %w", addr, err)
	}

	inst := r.Instances[key]
	if inst == nil {
		inst = &state.Instance{ProviderKey: providerKey}
		r.Instances[key] = inst
	} else if inst.ProviderKey != providerKey {
		return fmt.Errorf("resource instance %s: objects recorded with different provider instances", addr)
	}
	if is.Deposed == "" {
		if inst.Current != nil {
			return fmt.Errorf("resource instance %s: recorded more than once", addr)
		}
		inst.Current = obj
		return nil
	}
	dk := addrs.DeposedKey(is.Deposed)
	if len(dk) != 8 {
		return fmt.Errorf("resource instance %s: invalid deposed key %q: want eight characters", addr, is.Deposed)
	}
	if inst.Deposed[dk] != nil {
		return fmt.Errorf("resource instance %s: deposed object %s recorded more than once", addr, dk)
	}
	if inst.Deposed == nil {
		inst.Deposed = map[addrs.DeposedKey]*state.Object{}
	}
	inst.Deposed[dk] = obj
	return nil
}

// provider parses a provider configuration address, which must be in the
// canonical form addrs prints, so that it is written back unchanged, or in
// the form Terraform 0.12 wrote (provider.aws, module.net.provider.aws.west),
// which names a provider of the legacy namespace and is written back in the
// canonical form.
func (d *decoder) provider(s string) (addrs.AbsProviderConfig, error) {
	if pc, ok := d.providers[s]; ok {
		return pc, nil
	}
	canonical := s
	if !strings.Contains(s, "provider[") && (strings.HasPrefix(s, "provider.") || strings.Contains(s, ".provider.")) {
		var err error
		if canonical, err = legacyProvider(s, "", addrs.Resource{}); err != nil {
			return addrs.AbsProviderConfig{}, err
		}
	}
	pc, err := addrs.ParseAbsProviderConfig(canonical)
	if err != nil {
		return pc, err
	}
	if pc.String() != canonical {
		return pc, fmt.Errorf("invalid provider configuration address %q: not in canonical form (%s)", s, pc)
	}
	if err := d.checkModule(string(pc.Module)); err != nil {
		return pc, fmt.Errorf("invalid provider configuration address %q: %w", s, err)
	}
	if strings.Contains(string(pc.Module), "[") {
		// Provider configurations belong to modules, not module instances;
		// Terraform and OpenTofu silently drop a resource recorded so.
		return pc, fmt.Errorf("invalid provider configuration address %q: a module instance key is not allowed here", s)
	}
	d.providers[s] = pc
	return pc, nil
}

// dependencies decodes a list of recorded dependencies, raw JSON that
// json.Unmarshal has validated: absent, null and empty lists are nil. A list
// the decoder has decoded before is returned again, shared.
func (d *decoder) dependencies(raw json.RawMessage) ([]addrs.AbsResource, error) {
	i := skipJSONSpace(raw, 0)
	switch {
	case i == len(raw) || raw[i] == 'n':
		return nil, nil
	case raw[i] != '[':
		return nil, errors.New("want a list of resource addresses")
	}
	d.scratch = d.scratch[:0]
	// FNV-1a over the addresses' numbers.
	hash := uint64(14695981039346656037)
	for i = skipJSONSpace(raw, i+1); i < len(raw) && raw[i] != ']'; {
		if raw[i] != '"' {
			return nil, errors.New("want a list of resource addresses")
		}
		end := stringEnd(raw, i)
		s := raw[i+1 : end-1]
		if bytes.IndexByte(s, '\\') >= 0 {
			var unquoted string
			if err := json.Unmarshal(raw[i:end], &unquoted); err != nil {
				return nil, err
			}
			s = []byte(unquoted)
		}
		dep, err := d.dependency(s)
		if err != nil {
			return nil, err
		}
		d.scratch = append(d.scratch, dep.addr)
		hash = (hash ^ dep.n) * 1099511628211
		if i = skipJSONSpace(raw, end); i < len(raw) && raw[i] == ',' {
			i = skipJSONSpace(raw, i+1)
		}
	}
	if len(d.scratch) == 0 {
		return nil, nil
	}
	for _, list := range d.lists[hash] {
		if slices.Equal(list, d.scratch) {
			return list, nil
		}
	}
	list := d.keepList(d.scratch)
	d.lists[hash] = append(d.lists[hash], list)
	return list, nil
}

// dependency parses a recorded dependency, which must be in the canonical
// form addrs prints. Large states repeat the same few addresses many times,
// so each distinct string is parsed once.
func (d *decoder) dependency(s []byte) (dependency, error) {
	if dep, ok := d.deps[string(s)]; ok {
		return dep, nil
	}
	addr, ok := plainManagedAddr(s)
	if !ok {
		var err error
		if addr, err = addrs.ParseAbsResourceStr(string(s)); err != nil {
			return dependency{}, err
		}
		if addr.String() != string(s) {
			return dependency{}, fmt.Errorf("invalid resource address %q: not in canonical form (%s)", s, addr)
		}
	}
	dep := dependency{addr: addr, n: uint64(len(d.deps))}
	d.deps[string(s)] = dep
	return dep, nil
}

// instanceKey converts index_key: absent or null is NoKey, a whole number
// is an IntKey, a string is a StringKey.
func instanceKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return addrs.NoKey, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return addrs.NoKey, fmt.Errorf("invalid instance key %s: %w", raw, err)
		}
		return addrs.StringKey(s), nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if i, err := strconv.Atoi(string(raw)); err == nil && i >= 0 {
			return addrs.IntKey(i), nil
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err == nil && f >= 0 && f <= 1<<53 && f == math.Trunc(f) {
			return addrs.IntKey(int(f)), nil
		}
	}
	return addrs.NoKey, fmt.Errorf("invalid instance key %s: want a whole number or a string", raw)
}

// raw compacts a raw JSON value, which json.Unmarshal has validated, into
// the decoder's arena (blocks that many objects share), escaping <, >, &, U+2028 and U+2029 as json.Marshal
// does (and so as Marshal writes them); nil stays nil. The result is capped
// so that appending to it never writes into the arena.
func (d *decoder) raw(src json.RawMessage) json.RawMessage {
	if src == nil {
		return nil
	}
	d.compacted = appendCompactValid(d.compacted[:0], src)
	n := len(d.compacted)
	if cap(d.arena)-len(d.arena) < n {
		d.arena = make([]byte, 0, max(arenaBlock, n))
	}
	start := len(d.arena)
	d.arena = append(d.arena, d.compacted...)
	return json.RawMessage(d.arena[start : start+n : start+n])
}

// arenaBlock is the size of the blocks the decoder compacts raw JSON into:
// many objects share one allocation, and what a block leaves unused is
// small, whatever the indentation of the file (compact JSON takes a third
// of indented JSON, or less).
const arenaBlock = 256 << 10
