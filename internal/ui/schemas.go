package ui

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
)

// SchemaSource finds the schema of a resource type. Renderers use it for
// attribute types, nesting, sensitivity and the schema version; every
// renderer also works without one (a nil SchemaSource, or a type it does not
// know), falling back to the shape of the values themselves. Renderers may
// call it from several goroutines at once.
type SchemaSource interface {
	// ResourceTypeSchema returns the schema of the managed resource type
	// (mode addrs.Managed) or data source (addrs.Data) typeName of provider p.
	ResourceTypeSchema(p addrs.Provider, mode addrs.ResourceMode, typeName string) (provider.Schema, bool)
}

// ProviderSchemas is a SchemaSource over the schemas providers reported, by provider.
type ProviderSchemas map[addrs.Provider]*provider.Schemas

// ResourceTypeSchema implements SchemaSource.
func (m ProviderSchemas) ResourceTypeSchema(p addrs.Provider, mode addrs.ResourceMode, typeName string) (provider.Schema, bool) {
	ps := m[p]
	if ps == nil {
		return provider.Schema{}, false
	}
	var s provider.Schema
	var ok bool
	switch mode {
	case addrs.Data:
		s, ok = ps.DataSources[typeName]
	case addrs.Ephemeral:
		s, ok = ps.EphemeralResources[typeName]
	default:
		s, ok = ps.ResourceTypes[typeName]
	}
	if !ok || s.Block == nil {
		return provider.Schema{}, false
	}
	return s, true
}

// lookupBlock returns the schema block for a resource, or nil.
func lookupBlock(src SchemaSource, p addrs.Provider, r addrs.Resource) *provider.Block {
	if src == nil {
		return nil
	}
	s, ok := src.ResourceTypeSchema(p, r.Mode, r.Type)
	if !ok {
		return nil
	}
	return s.Block
}
