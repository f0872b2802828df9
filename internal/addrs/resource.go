package addrs

import "strings"

// ResourceMode distinguishes managed resources from data sources.
type ResourceMode uint8

const (
	// InvalidMode is the zero value, never valid in an address.
	InvalidMode ResourceMode = iota
	// Managed is a `resource` block: rig creates, updates and deletes it.
	Managed
	// Data is a `data` block: rig only reads it.
	Data
	// Ephemeral is an `ephemeral` block: opened for the length of a run
	// and never recorded.
	Ephemeral
	// List is a `list` block of a query file (Terraform 1.14): the
	// objects a provider finds, never planned or recorded.
	List
)

// String returns "managed" or "data", as the state and JSON formats write it.
func (m ResourceMode) String() string {
	switch m {
	case Managed:
		return "managed"
	case Data:
		return "data"
	case Ephemeral:
		return "ephemeral"
	case List:
		return "list"
	}
	return "invalid"
}

// Resource names a resource block within a module: data.aws_ami.x or aws_instance.y.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

// String returns the resource in reference syntax.
func (r Resource) String() string {
	switch r.Mode {
	case Data:
		return "data." + r.Type + "." + r.Name
	case Ephemeral:
		return "ephemeral." + r.Type + "." + r.Name
	case List:
		return "list." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// Instance returns the address of one instance of r.
func (r Resource) Instance(k InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: k}
}

// Absolute places r in module m.
func (r Resource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r}
}

// ImpliedProviderType is the provider local name implied by the resource
// type's prefix: "aws" for "aws_instance", "terraform" for "terraform_data".
func (r Resource) ImpliedProviderType() string {
	if i := strings.IndexByte(r.Type, '_'); i > 0 {
		return r.Type[:i]
	}
	return r.Type
}

// Less orders resources by mode (managed first), type, then name.
func (r Resource) Less(o Resource) bool {
	if r.Mode != o.Mode {
		return r.Mode < o.Mode
	}
	if r.Type != o.Type {
		return r.Type < o.Type
	}
	return r.Name < o.Name
}

// ResourceInstance names one instance of a resource within a module.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

// String returns the instance in reference syntax: aws_instance.y[0].
func (ri ResourceInstance) String() string { return ri.Resource.String() + ri.Key.String() }

// Absolute places ri in module m.
func (ri ResourceInstance) Absolute(m ModuleInstance) AbsResourceInstance {
	return AbsResourceInstance{Module: m, Resource: ri}
}

// ModuleInstance names a module instance by its canonical path,
// `module.a["x"].module.b`; RootModule is the empty string.
type ModuleInstance string

// RootModule is the root module instance.
const RootModule ModuleInstance = ""

// IsRoot reports whether m is the root module.
func (m ModuleInstance) IsRoot() bool { return m == RootModule }

// String returns the module path, "" for the root.
func (m ModuleInstance) String() string { return string(m) }

// AbsResource names a resource in a particular module instance.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

// String returns the address in user syntax.
func (r AbsResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return string(r.Module) + "." + r.Resource.String()
}

// Instance returns the address of one instance of r.
func (r AbsResource) Instance(k InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: ResourceInstance{Resource: r.Resource, Key: k}}
}

// Less orders by module path, then resource.
func (r AbsResource) Less(o AbsResource) bool { return r.Compare(o) < 0 }

// AbsResourceInstance names one resource instance in a module instance: the
// identity of an object in state.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

// String returns the address in user syntax: module.m.aws_instance.y[0].
func (r AbsResourceInstance) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return string(r.Module) + "." + r.Resource.String()
}

// ContainingResource returns the resource r is an instance of.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// Less orders by module, resource, then key, so that a sorted list reads naturally.
func (r AbsResourceInstance) Less(o AbsResourceInstance) bool {
	if r.Module != o.Module {
		return r.Module.Compare(o.Module) < 0
	}
	if r.Resource.Resource != o.Resource.Resource {
		return r.Resource.Resource.Less(o.Resource.Resource)
	}
	return r.Resource.Key.Less(o.Resource.Key)
}

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (r AbsResourceInstance) Compare(o AbsResourceInstance) int {
	switch {
	case r == o:
		return 0
	case r.Less(o):
		return -1
	}
	return 1
}

// DeposedKey identifies a deposed object of a resource instance: an old
// object kept in state, after a create_before_destroy replacement created its
// successor, until it is deleted. NotDeposed (the empty key) means the current object.
type DeposedKey string

// NotDeposed is the key of an instance's current object.
const NotDeposed DeposedKey = ""

// ObjectAddr names one object in state: an instance's current object, or one of its deposed objects.
type ObjectAddr struct {
	Instance AbsResourceInstance
	Deposed  DeposedKey
}

// String returns the instance address, followed by " (deposed object KEY)" for a deposed object.
func (o ObjectAddr) String() string {
	if o.Deposed == NotDeposed {
		return o.Instance.String()
	}
	return o.Instance.String() + " (deposed object " + string(o.Deposed) + ")"
}

// Less orders by instance, current before deposed.
func (o ObjectAddr) Less(p ObjectAddr) bool {
	if o.Instance != p.Instance {
		return o.Instance.Less(p.Instance)
	}
	return o.Deposed < p.Deposed
}
