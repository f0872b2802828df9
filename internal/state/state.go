package state

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ctyjson"
	"github.com/zclconf/go-cty/cty"
)

// State is the recorded world: every object rig manages, and root outputs.
// A State is not safe for concurrent use; during apply one goroutine owns it.
type State struct {
	// Lineage identifies a state's history; it never changes once set.
	Lineage string
	// Serial increases by one each time a changed state is persisted.
	Serial uint64
	// TerraformVersion is the version of the program that last wrote the state.
	TerraformVersion string
	// Outputs are the root module's output values, by name.
	Outputs map[string]OutputValue
	// Resources holds every resource with at least one object, by address.
	Resources map[addrs.AbsResource]*Resource
	// CheckResults is carried through unchanged from the file that was read.
	CheckResults json.RawMessage
}

// OutputValue is one recorded root output.
type OutputValue struct {
	Value     cty.Value
	Sensitive bool
}

// Resource is the recorded part of one resource: its provider configuration and instances.
type Resource struct {
	Addr addrs.AbsResource
	// ProviderConfig is the provider configuration (block) that manages
	// the resource's objects, without an instance key: the instances of a
	// configuration with for_each each record their own (Instance.ProviderKey).
	ProviderConfig addrs.AbsProviderConfig
	Instances      map[addrs.InstanceKey]*Instance
}

// InstanceProvider returns the provider configuration instance that
// manages the objects of instance k: ProviderConfig with the instance's
// ProviderKey.
func (r *Resource) InstanceProvider(k addrs.InstanceKey) addrs.AbsProviderConfig {
	pc := r.ProviderConfig
	if inst := r.Instances[k]; inst != nil {
		pc.Key = inst.ProviderKey
	}
	return pc
}

// HasProviderKeys reports whether an instance of r records a provider
// configuration instance key (the state file then records the provider per
// instance).
func (r *Resource) HasProviderKeys() bool {
	for _, inst := range r.Instances {
		if !inst.ProviderKey.IsNone() {
			return true
		}
	}
	return false
}

// Instance holds the objects of one resource instance: at most one current
// object and any number of deposed ones (left by create_before_destroy).
type Instance struct {
	Current *Object
	Deposed map[addrs.DeposedKey]*Object
	// ProviderKey is the instance key of the provider configuration
	// instance (provider for_each) that manages the objects; NoKey for a
	// configuration without for_each.
	ProviderKey addrs.InstanceKey
}

// HasObjects reports whether the instance has a current or deposed object.
func (i *Instance) HasObjects() bool { return i != nil && (i.Current != nil || len(i.Deposed) > 0) }

// ObjectStatus says whether an object is in good standing or must be replaced.
type ObjectStatus uint8

const (
	// Ready is an object that was created or updated successfully.
	Ready ObjectStatus = iota
	// Tainted is an object whose creation did not complete; the next plan replaces it.
	Tainted
)

// String returns "ready" or "tainted".
func (s ObjectStatus) String() string {
	if s == Tainted {
		return "tainted"
	}
	return "ready"
}

// Object is one remote object as recorded. Its attributes are kept in their
// JSON form, decoded with the resource type's schema when needed, so that an
// object costs nothing to carry through a run that does not change it.
type Object struct {
	Status        ObjectStatus
	SchemaVersion uint64
	// AttrsJSON is the attributes object as JSON; never nil for a stored object.
	AttrsJSON json.RawMessage
	// AttrsFlat is a legacy flatmap form found in very old states; nil otherwise.
	AttrsFlat map[string]string
	// SensitiveAttributes is carried through unchanged (JSON), nil when none.
	SensitiveAttributes json.RawMessage
	// Private is the provider's opaque private data for this object.
	Private []byte
	// Dependencies are the resources this object depended on when it was last
	// created or updated; destroy order uses them when the config is gone.
	Dependencies []addrs.AbsResource
	// CreateBeforeDestroy records that this object is replaced create-first,
	// set by the resource or inherited from a dependent.
	CreateBeforeDestroy bool
	// SkipDestroy records lifecycle.destroy = false (OpenTofu 1.12's
	// skip_destroy): once its configuration is gone, the object is
	// forgotten rather than destroyed.
	SkipDestroy bool
	// PreventDestroy is where the lifecycle.prevent_destroy that protected
	// the object when it was last applied was set ("main.tf:12"); "" when
	// none is recorded. rig refuses to plan the object's destruction while
	// it is recorded, even once its configuration is gone
	// (docs/design.md §4). Recorded only when rig.hcl asks for it.
	PreventDestroy string
	// IdentitySchemaVersion is the schema version of the resource identity
	// that Terraform 1.12 and later record; nil when the object has none.
	// It is carried through unchanged.
	IdentitySchemaVersion *uint64
	// IdentityJSON is that resource identity as JSON, carried through
	// unchanged; nil when none.
	IdentityJSON json.RawMessage
}

// Decode returns the object's attributes as a value of type ty; null
// attributes ty does not have (a newer schema's) are left out.
func (o *Object) Decode(ty cty.Type) (cty.Value, error) {
	if o.AttrsJSON == nil {
		return cty.NullVal(ty), fmt.Errorf("object has no attributes in JSON form")
	}
	v, err := decodeAttrs(o.AttrsJSON, ty)
	if err != nil {
		return cty.NullVal(ty), fmt.Errorf("decoding attributes: %w", err)
	}
	return v, nil
}

// NewObject builds an object from a value of type ty, encoding it once.
func NewObject(v cty.Value, ty cty.Type) (*Object, error) {
	raw, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return nil, fmt.Errorf("encoding attributes: %w", err)
	}
	// Marshal's result is already its own, at its exact size.
	return &Object{AttrsJSON: raw}, nil
}

// New returns an empty state with a fresh lineage.
func New() *State {
	return &State{Lineage: NewLineage(), Outputs: map[string]OutputValue{}, Resources: map[addrs.AbsResource]*Resource{}}
}

// NewLineage returns a random UUID-shaped lineage string.
func NewLineage() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// NewDeposedKey returns a random eight-hex-digit deposed key not used by inst.
func NewDeposedKey(inst *Instance) addrs.DeposedKey {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		k := addrs.DeposedKey(hex.EncodeToString(b[:]))
		if inst == nil || inst.Deposed[k] == nil {
			return k
		}
	}
}

// Resource returns the recorded resource at addr, or nil.
func (s *State) Resource(addr addrs.AbsResource) *Resource { return s.Resources[addr] }

// Instance returns the recorded instance at addr, or nil.
func (s *State) Instance(addr addrs.AbsResourceInstance) *Instance {
	r := s.Resources[addr.ContainingResource()]
	if r == nil {
		return nil
	}
	return r.Instances[addr.Resource.Key]
}

// Object returns the object at addr (current or deposed), or nil.
func (s *State) Object(addr addrs.ObjectAddr) *Object {
	inst := s.Instance(addr.Instance)
	if inst == nil {
		return nil
	}
	if addr.Deposed == addrs.NotDeposed {
		return inst.Current
	}
	return inst.Deposed[addr.Deposed]
}

func (s *State) ensureInstance(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) *Instance {
	ra := addr.ContainingResource()
	r := s.Resources[ra]
	if r == nil {
		r = &Resource{Addr: ra, Instances: map[addrs.InstanceKey]*Instance{}}
		s.Resources[ra] = r
	}
	if !pc.Provider.IsZero() {
		r.ProviderConfig = pc.Config()
	}
	inst := r.Instances[addr.Resource.Key]
	if inst == nil {
		inst = &Instance{}
		r.Instances[addr.Resource.Key] = inst
	}
	if !pc.Provider.IsZero() {
		inst.ProviderKey = pc.Key
	}
	return inst
}

// ObjectProvider returns the provider configuration instance recorded for
// the objects of addr (see Resource.InstanceProvider); the zero value when
// the state has no such resource.
func (s *State) ObjectProvider(addr addrs.AbsResourceInstance) addrs.AbsProviderConfig {
	r := s.Resources[addr.ContainingResource()]
	if r == nil {
		return addrs.AbsProviderConfig{}
	}
	return r.InstanceProvider(addr.Resource.Key)
}

// SetObject records obj at addr (current or deposed) under provider
// configuration instance pc (the resource records pc without its key, the
// instance the key); a nil obj removes the object, and a resource left with
// no objects is removed. A zero pc keeps what is recorded.
func (s *State) SetObject(addr addrs.ObjectAddr, obj *Object, pc addrs.AbsProviderConfig) {
	if obj == nil {
		s.removeObject(addr)
		return
	}
	inst := s.ensureInstance(addr.Instance, pc)
	if addr.Deposed == addrs.NotDeposed {
		inst.Current = obj
		return
	}
	if inst.Deposed == nil {
		inst.Deposed = map[addrs.DeposedKey]*Object{}
	}
	inst.Deposed[addr.Deposed] = obj
}

func (s *State) removeObject(addr addrs.ObjectAddr) {
	ra := addr.Instance.ContainingResource()
	r := s.Resources[ra]
	if r == nil {
		return
	}
	inst := r.Instances[addr.Instance.Resource.Key]
	if inst == nil {
		return
	}
	if addr.Deposed == addrs.NotDeposed {
		inst.Current = nil
	} else {
		delete(inst.Deposed, addr.Deposed)
	}
	if !inst.HasObjects() {
		delete(r.Instances, addr.Instance.Resource.Key)
	}
	if len(r.Instances) == 0 {
		delete(s.Resources, ra)
	}
}

// Depose moves the current object of addr to a new deposed key and returns
// the key; it returns NotDeposed when there is no current object.
func (s *State) Depose(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	inst := s.Instance(addr)
	if inst == nil || inst.Current == nil {
		return addrs.NotDeposed
	}
	k := NewDeposedKey(inst)
	if inst.Deposed == nil {
		inst.Deposed = map[addrs.DeposedKey]*Object{}
	}
	inst.Deposed[k] = inst.Current
	inst.Current = nil
	return k
}

// Objects returns the address of every object in the state, sorted.
func (s *State) Objects() []addrs.ObjectAddr {
	var out []addrs.ObjectAddr
	for ra, r := range s.Resources {
		for k, inst := range r.Instances {
			ia := ra.Instance(k)
			if inst.Current != nil {
				out = append(out, addrs.ObjectAddr{Instance: ia})
			}
			for dk := range inst.Deposed {
				out = append(out, addrs.ObjectAddr{Instance: ia, Deposed: dk})
			}
		}
	}
	slices.SortFunc(out, addrs.ObjectAddr.Compare)
	return out
}

// Empty reports whether the state records no objects and no outputs.
func (s *State) Empty() bool { return len(s.Resources) == 0 && len(s.Outputs) == 0 }

// DeepCopy returns a copy that shares no mutable maps with s. Objects are
// shared: an Object is never modified after it is recorded (callers replace it).
func (s *State) DeepCopy() *State {
	if s == nil {
		return nil
	}
	c := &State{Lineage: s.Lineage, Serial: s.Serial, TerraformVersion: s.TerraformVersion, CheckResults: s.CheckResults,
		Outputs: make(map[string]OutputValue, len(s.Outputs)), Resources: make(map[addrs.AbsResource]*Resource, len(s.Resources))}
	for k, v := range s.Outputs {
		c.Outputs[k] = v
	}
	for ra, r := range s.Resources {
		nr := &Resource{Addr: r.Addr, ProviderConfig: r.ProviderConfig, Instances: make(map[addrs.InstanceKey]*Instance, len(r.Instances))}
		for k, inst := range r.Instances {
			ni := &Instance{Current: inst.Current, ProviderKey: inst.ProviderKey}
			if len(inst.Deposed) > 0 {
				ni.Deposed = make(map[addrs.DeposedKey]*Object, len(inst.Deposed))
				for dk, o := range inst.Deposed {
					ni.Deposed[dk] = o
				}
			}
			nr.Instances[k] = ni
		}
		c.Resources[ra] = nr
	}
	return c
}

// ResourceAddrs returns the addresses of s's resources, sorted (module
// paths step by step, then resources). The slice is new.
func (s *State) ResourceAddrs() []addrs.AbsResource {
	return slices.SortedFunc(maps.Keys(s.Resources), addrs.AbsResource.Compare)
}

// InstanceKeys returns the keys of r's instances, sorted. The slice is new.
func (r *Resource) InstanceKeys() []addrs.InstanceKey {
	return slices.SortedFunc(maps.Keys(r.Instances), addrs.InstanceKey.Compare)
}
