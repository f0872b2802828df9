package provider

import "github.com/zclconf/go-cty/cty"

// ListRequest asks a provider for the existing objects of a list resource
// type (a list block of a query file).
type ListRequest struct {
	TypeName string
	// Config is the list block's config block, a value of the list
	// resource schema's type.
	Config cty.Value
	// IncludeResource asks for each object's full attributes besides its
	// identity.
	IncludeResource bool
	// Limit is the most objects the provider returns.
	Limit int64
}

// ListedObject is one object a ListResource call found.
type ListedObject struct {
	// Identity is the object's resource identity, a value of the managed
	// resource type's identity schema.
	Identity cty.Value
	// DisplayName is how the provider names the object for people.
	DisplayName string
	// Resource is the object's attributes when the request included them;
	// cty.NilVal otherwise.
	Resource cty.Value
}
