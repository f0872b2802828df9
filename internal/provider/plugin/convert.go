package plugin

import (
	"errors"
	"io"

	"github.com/rig-iac/rig/internal/provider"
)

// The steps the two protocol versions' clients share, over the generated
// types of either.

// schemaResponse is the part of a GetProviderSchema response of either
// protocol version that names its schemas: S is the version's schema
// type, F its function type and A its action schema type.
type schemaResponse[S, F, A any] interface {
	GetResourceSchemas() map[string]S
	GetDataSourceSchemas() map[string]S
	GetEphemeralResourceSchemas() map[string]S
	GetListResourceSchemas() map[string]S
	GetFunctions() map[string]F
	GetActionSchemas() map[string]A
}

// convertNamed fills in ws the named schemas and functions of resp,
// converted with schema, function and action; each that does not convert
// is reported to invalid and left out.
func convertNamed[S, F, A any](ws *wireSchemas, resp schemaResponse[S, F, A], schema func(S) (provider.Schema, error),
	function func(F) (provider.FunctionSpec, error), action func(A) (provider.Schema, error), invalid func(what string, err error)) {
	ws.schemas.ResourceTypes = convertEach(resp.GetResourceSchemas(), "resource type", schema, invalid)
	ws.schemas.DataSources = convertEach(resp.GetDataSourceSchemas(), "data source", schema, invalid)
	ws.schemas.EphemeralResources = convertEach(resp.GetEphemeralResourceSchemas(), "ephemeral resource type", schema, invalid)
	ws.functions = convertEach(resp.GetFunctions(), "function", function, invalid)
	ws.schemas.ListResources = convertEach(resp.GetListResourceSchemas(), "list resource type", schema, invalid)
	ws.schemas.Actions = convertEach(resp.GetActionSchemas(), "action type", action, invalid)
}

// convertEach converts each named element of a schema response with conv:
// one that does not convert is reported to invalid, as "KIND NAME", and
// left out. The map is new and never nil.
func convertEach[S, T any](in map[string]S, kind string, conv func(S) (T, error), invalid func(what string, err error)) map[string]T {
	out := make(map[string]T, len(in))
	for name, s := range in {
		v, err := conv(s)
		if err != nil {
			invalid(kind+" "+name, err)
			continue
		}
		out[name] = v
	}
	return out
}

// receiveAll receives the messages of a server stream with recv, handing
// each to handle in turn, until the stream ends (nil) or fails (its
// error).
func receiveAll[M any](recv func() (M, error), handle func(M)) error {
	for {
		m, err := recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		handle(m)
	}
}
