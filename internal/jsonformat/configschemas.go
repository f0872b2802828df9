package jsonformat

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/provider"
)

// NewConfigFromSet is NewConfig after adding to schemas those of the
// providers the tree uses that it lacks, from set (AddConfigSchemas): a
// provider whose schemas cannot be had is left out.
func NewConfigFromSet(ctx context.Context, root *config.Module, schemas map[addrs.Provider]*provider.Schemas, set *provider.Set) *Config {
	AddConfigSchemas(schemas, root, func(p addrs.Provider) (*provider.Schemas, bool) {
		s, ds := set.Schemas(ctx, p)
		return s, !ds.HasErrors()
	})
	return NewConfig(root, schemas)
}
