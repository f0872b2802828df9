package ui

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/provider"
)

// ProviderSchemasJSON is the document `providers schema -json` prints:
// the schemas and functions of the providers used, asked of set. A
// provider whose schemas cannot be read is left out, with its errors.
func ProviderSchemasJSON(ctx context.Context, set *provider.Set, used []addrs.Provider) (jsonformat.ProviderSchemas, diag.Diagnostics) {
	out := jsonformat.ProviderSchemas{FormatVersion: "1.0", Schemas: map[string]*jsonformat.ProviderSchema{}}
	var ds diag.Diagnostics
	for _, p := range used {
		schemas, more := set.Schemas(ctx, p)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		fns, more := set.Functions(ctx, p)
		ds = ds.Append(more)
		out.Schemas[p.String()] = jsonformat.NewProviderSchema(p, schemas, fns)
	}
	return out, ds
}
