package plan

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// QueryHooks hears of a query's progress.
type QueryHooks interface {
	// PreList is called before an instance of a list block (res.Addr) is
	// sent to its provider, with the evaluated config block; res has no
	// objects yet.
	PreList(res ListResult, input cty.Value)
	// PostList is called with what the instance found, in the order
	// the provider streamed it.
	PostList(res ListResult)
}

// ListResult is what one instance of a list block found.
type ListResult struct {
	List *config.List
	// Addr is the instance's address, list.TYPE.NAME with its count
	// index or for_each key.
	Addr addrs.AbsResourceInstance
	// Index is the instance's position among the block's instances (in
	// key order): generated resource names include it for a block with
	// count or for_each.
	Index int
	// Config is the evaluated config block sent to the provider.
	Config cty.Value
	// ProviderConfig is the provider configuration that listed.
	ProviderConfig addrs.AbsProviderConfig
	// Schema is the schema of the managed resource type listed, with its
	// identity schema.
	Schema provider.Schema
	// Objects are the objects found (at most the block's limit).
	Objects []provider.ListedObject
}

// GeneratedQueryResource is the configuration generated for one object a
// list block found: a resource block and the import block that brings
// the object under it by its identity.
type GeneratedQueryResource struct {
	Addr addrs.AbsResourceInstance
	// Config is the resource block, Import the import block, each
	// formatted and ending in a newline.
	Config, Import []byte
}
