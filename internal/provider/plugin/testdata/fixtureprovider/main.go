// Command fixtureprovider is a provider plugin (protocol 6) with the
// schema the test-file fixtures of OpenTofu's test command use, so that
// rig and OpenTofu run the same fixtures against the same plugin: the
// resource type test_resource (id, value, interrupt_count), the data
// source test_data_source (id, value, interrupt_count) and a provider
// configuration of data_prefix, resource_prefix, username, password and a
// block_single block.
//
// Objects are kept as files in the directory RIG_FIXTURE_STORE names (by
// default .fixture-store in the working directory), so that every process
// of one test command sees what the others created. A resource is stored
// under RESOURCE_PREFIX/ID, and a data source reads DATA_PREFIX/ID: a
// data source can read a resource that a configuration with the same
// prefixes created. An applied test_resource with interrupt_count = N
// sends N interrupts (SIGINT), half a second apart, to the process that
// started the plugin, then waits a second.
package main

import (
	"context"
	"fmt"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"google.golang.org/grpc"
)

func main() {
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: goplugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]goplugin.PluginSet{6: {"provider": &plugin6{srv: &server{}}}},
		GRPCServer:       goplugin.DefaultGRPCServer,
	})
}

type plugin6 struct {
	goplugin.NetRPCUnsupportedPlugin
	srv *server
}

func (p *plugin6) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	tfplugin6.RegisterProviderServer(s, p.srv)
	return nil
}

func (p *plugin6) GRPCClient(context.Context, *goplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("fixtureprovider is a server only")
}
