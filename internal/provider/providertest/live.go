package providertest

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Object is one object that currently exists in the fake remote system.
type Object struct {
	// Type is the resource type, e.g. "test_thing".
	Type string
	// ID is the object's id.
	ID string
	// Key is the object's key attribute, or its id when key is unset.
	Key string
	// Name is the name attribute, "" when null.
	Name string
	// Value is the value attribute, "" when null.
	Value string
	// State is the whole object, as ReadResource returns it.
	State cty.Value
}

// liveObject is an Object with the order in which it became live.
type liveObject struct {
	Object
	order int
}

func newObject(typeName string, state cty.Value) Object {
	id := str(state, "id")
	key := str(state, "key")
	if key == "" {
		key = id
	}
	return Object{Type: typeName, ID: id, Key: key, Name: str(state, "name"), Value: str(state, "value"), State: state}
}

// Live returns the objects that currently exist, in the order they were
// created or added (an update keeps an object's place). The caller owns the slice.
func (p *Provider) Live() []Object {
	p.mu.Lock()
	los := make([]*liveObject, 0, len(p.live))
	for _, o := range p.live {
		los = append(los, o)
	}
	p.mu.Unlock()
	sort.Slice(los, func(i, j int) bool { return los[i].order < los[j].order })
	out := make([]Object, len(los))
	for i, o := range los {
		out[i] = o.Object
	}
	return out
}

// AddLive makes obj (an object of its type's schema with a known, non-empty
// id) exist without an apply, as if created outside rig or by an earlier run
// whose state a test starts from. Later ids are allocated past any "id-N" it
// adds. It fails if the id is live already or the name is taken.
func (p *Provider) AddLive(typeName string, obj cty.Value) error {
	switch {
	case !knownType(typeName):
		return fmt.Errorf("add live object: unsupported resource type %q", typeName)
	case obj.IsNull() || !obj.IsWhollyKnown() || !obj.Type().Equals(typeOf(typeName)):
		return fmt.Errorf("add live %s object: not a known, non-null object of the schema's type: %#v", typeName, obj)
	}
	o := newObject(typeName, obj)
	if o.ID == "" {
		return errors.New("add live " + typeName + " object: id is not set")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.live[o.ID]; ok {
		return fmt.Errorf("add live %s object %s: already exists", typeName, o.ID)
	}
	if holder, ok := p.names[o.Name]; ok && o.Name != "" {
		return fmt.Errorf("add live %s object %s: name %q is already taken by %s", typeName, o.ID, o.Name, holder)
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(o.ID, "id-")); err == nil && strings.HasPrefix(o.ID, "id-") && n > p.lastID {
		p.lastID = n
	}
	p.putLocked(o)
	return nil
}

// RemoveLive deletes the live object with the given id without an apply, as
// if deleted outside rig, and reports whether it existed.
func (p *Provider) RemoveLive(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.live[id]
	p.removeLocked(id)
	return ok
}

// nameHolderLocked returns the id of the live object other than id that has
// the given name; "" when name is empty or free.
func (p *Provider) nameHolderLocked(name, id string) string {
	if name == "" {
		return ""
	}
	if holder, ok := p.names[name]; ok && holder != id {
		return holder
	}
	return ""
}

// putLocked adds o or replaces the live object with its id, keeping the name index.
func (p *Provider) putLocked(o Object) {
	order := p.order + 1
	if old, ok := p.live[o.ID]; ok {
		order = old.order
		if old.Name != "" {
			delete(p.names, old.Name)
		}
	} else {
		p.order++
	}
	p.live[o.ID] = &liveObject{Object: o, order: order}
	if o.Name != "" {
		p.names[o.Name] = o.ID
	}
}

func (p *Provider) removeLocked(id string) {
	if old, ok := p.live[id]; ok {
		if old.Name != "" && p.names[old.Name] == id {
			delete(p.names, old.Name)
		}
		delete(p.live, id)
	}
}
