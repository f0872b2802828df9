// Command testprovider is a provider plugin for the tests of package
// plugin and of the commands: it serves the actions test_log and test_fail
// (action.go), the resource types test_thing,
// test_file (objects kept as files in a directory, see world.go),
// test_secret (a resource and a data source with sensitive attributes, see
// secret.go), the ephemeral resource test_token (ephemeral.go) and, over
// protocol 6 only, test_nested, the data source test_echo (whose input
// "invalid" its validation refuses) and the function upper, written
// against rig's own tfplugin5/tfplugin6 stubs. Protocol 6 is implemented in
// server.go; protocol 5 relays each call to it, re-encoding the messages
// (the two protocols share field numbers for everything it uses).
//
// RIG_TESTPROVIDER_PROTOCOL=5 or 6 restricts the versions it offers (both
// by default). RIG_TESTPROVIDER_CALL_DELAY (a duration, such as 50ms) makes
// every call that would reach a cloud API in a real provider (reads,
// plans, applies, imports) take that long. It logs as the plugin SDKs do
// (calls.go), at the level TF_LOG_PROVIDER_TEST names. With -debug it runs on its own and prints one line,
// TF_REATTACH_PROVIDERS=JSON, for a client to attach with; -debug-test=false
// marks that configuration as not in test mode, so closing the client ends
// the process.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// ReattachKey is the provider address the -debug line names.
const reattachKey = "registry.terraform.io/rig/test"

func main() {
	debug := flag.Bool("debug", false, "run on its own and print a TF_REATTACH_PROVIDERS line")
	debugTest := flag.Bool("debug-test", true, "with -debug: mark the reattach configuration as test mode")
	flag.Parse()

	srv := newServer()
	plugins := map[int]goplugin.PluginSet{
		5: {"provider": &plugin5{srv: srv}},
		6: {"provider": &plugin6{srv: srv}},
	}
	switch os.Getenv("RIG_TESTPROVIDER_PROTOCOL") {
	case "5":
		delete(plugins, 6)
	case "6":
		delete(plugins, 5)
	}
	cfg := &goplugin.ServeConfig{
		HandshakeConfig: goplugin.HandshakeConfig{
			ProtocolVersion:  5,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: plugins,
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return goplugin.DefaultGRPCServer(append(opts, serverOptions()...))
		},
	}
	if *debug {
		ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer cancel()
		ch := make(chan *goplugin.ReattachConfig, 1)
		closed := make(chan struct{})
		cfg.Test = &goplugin.ServeTestConfig{Context: ctx, ReattachConfigCh: ch, CloseCh: closed}
		go func() {
			rc := <-ch
			printReattach(rc, *debugTest)
		}()
		goplugin.Serve(cfg)
		<-closed
		return
	}
	goplugin.Serve(cfg)
}

func printReattach(rc *goplugin.ReattachConfig, test bool) {
	type addr struct{ Network, String string }
	type entry struct {
		Protocol        string
		ProtocolVersion int
		Pid             int
		Test            bool
		Addr            addr
	}
	var a net.Addr = rc.Addr
	b, err := json.Marshal(map[string]entry{reattachKey: {
		Protocol:        string(rc.Protocol),
		ProtocolVersion: rc.ProtocolVersion,
		Pid:             rc.Pid,
		Test:            test,
		Addr:            addr{Network: a.Network(), String: a.String()},
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprovider:", err)
		os.Exit(1)
	}
	fmt.Printf("TF_REATTACH_PROVIDERS=%s\n", b)
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
	return nil, fmt.Errorf("testprovider is a server only")
}

type plugin5 struct {
	goplugin.NetRPCUnsupportedPlugin
	srv *server
}

func (p *plugin5) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	tfplugin5.RegisterProviderServer(s, &server5{v6: p.srv})
	return nil
}

func (p *plugin5) GRPCClient(context.Context, *goplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("testprovider is a server only")
}

// relay re-encodes a protocol-5 request as its protocol-6 twin, calls the
// protocol-6 server, and re-encodes the response back.
func relay[Req5, Resp5, Req6, Resp6 proto.Message](ctx context.Context, in Req5, req6 Req6, resp5 Resp5, call func(context.Context, Req6) (Resp6, error)) (Resp5, error) {
	b, err := proto.Marshal(in)
	if err != nil {
		return resp5, err
	}
	if err := proto.Unmarshal(b, req6); err != nil {
		return resp5, err
	}
	out, err := call(ctx, req6)
	if err != nil {
		return resp5, err
	}
	if b, err = proto.Marshal(out); err != nil {
		return resp5, err
	}
	return resp5, proto.Unmarshal(b, resp5)
}

// server5 serves protocol 5 by relaying to the protocol-6 server.
type server5 struct {
	tfplugin5.UnimplementedProviderServer
	v6 *server
}

func (s *server5) GetSchema(ctx context.Context, in *tfplugin5.GetProviderSchema_Request) (*tfplugin5.GetProviderSchema_Response, error) {
	// Nested attribute types do not exist in protocol 5 (and their field
	// number means something else there): leave out test_nested.
	v6only := func(ctx context.Context, req *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
		resp, err := s.v6.GetProviderSchema(ctx, req)
		if err == nil {
			delete(resp.ResourceSchemas, "test_nested")
			resp.ServerCapabilities.PlanDestroy = false
		}
		return resp, err
	}
	return relay(ctx, in, new(tfplugin6.GetProviderSchema_Request), new(tfplugin5.GetProviderSchema_Response), v6only)
}

func (s *server5) PrepareProviderConfig(ctx context.Context, in *tfplugin5.PrepareProviderConfig_Request) (*tfplugin5.PrepareProviderConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateProviderConfig_Request), new(tfplugin5.PrepareProviderConfig_Response), s.v6.ValidateProviderConfig)
}

func (s *server5) ValidateResourceTypeConfig(ctx context.Context, in *tfplugin5.ValidateResourceTypeConfig_Request) (*tfplugin5.ValidateResourceTypeConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateResourceConfig_Request), new(tfplugin5.ValidateResourceTypeConfig_Response), s.v6.ValidateResourceConfig)
}

func (s *server5) ValidateDataSourceConfig(ctx context.Context, in *tfplugin5.ValidateDataSourceConfig_Request) (*tfplugin5.ValidateDataSourceConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateDataResourceConfig_Request), new(tfplugin5.ValidateDataSourceConfig_Response), s.v6.ValidateDataResourceConfig)
}

func (s *server5) Configure(ctx context.Context, in *tfplugin5.Configure_Request) (*tfplugin5.Configure_Response, error) {
	return relay(ctx, in, new(tfplugin6.ConfigureProvider_Request), new(tfplugin5.Configure_Response), s.v6.ConfigureProvider)
}

func (s *server5) UpgradeResourceState(ctx context.Context, in *tfplugin5.UpgradeResourceState_Request) (*tfplugin5.UpgradeResourceState_Response, error) {
	return relay(ctx, in, new(tfplugin6.UpgradeResourceState_Request), new(tfplugin5.UpgradeResourceState_Response), s.v6.UpgradeResourceState)
}

func (s *server5) ReadResource(ctx context.Context, in *tfplugin5.ReadResource_Request) (*tfplugin5.ReadResource_Response, error) {
	return relay(ctx, in, new(tfplugin6.ReadResource_Request), new(tfplugin5.ReadResource_Response), s.v6.ReadResource)
}

func (s *server5) PlanResourceChange(ctx context.Context, in *tfplugin5.PlanResourceChange_Request) (*tfplugin5.PlanResourceChange_Response, error) {
	// Protocol 5 is where the legacy SDK lives: mark responses as it does.
	legacy := func(ctx context.Context, req *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
		resp, err := s.v6.PlanResourceChange(ctx, req)
		if err == nil {
			resp.LegacyTypeSystem = true
		}
		return resp, err
	}
	return relay(ctx, in, new(tfplugin6.PlanResourceChange_Request), new(tfplugin5.PlanResourceChange_Response), legacy)
}

func (s *server5) ApplyResourceChange(ctx context.Context, in *tfplugin5.ApplyResourceChange_Request) (*tfplugin5.ApplyResourceChange_Response, error) {
	legacy := func(ctx context.Context, req *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
		resp, err := s.v6.ApplyResourceChange(ctx, req)
		if err == nil {
			resp.LegacyTypeSystem = true
		}
		return resp, err
	}
	return relay(ctx, in, new(tfplugin6.ApplyResourceChange_Request), new(tfplugin5.ApplyResourceChange_Response), legacy)
}

func (s *server5) ImportResourceState(ctx context.Context, in *tfplugin5.ImportResourceState_Request) (*tfplugin5.ImportResourceState_Response, error) {
	return relay(ctx, in, new(tfplugin6.ImportResourceState_Request), new(tfplugin5.ImportResourceState_Response), s.v6.ImportResourceState)
}

func (s *server5) ReadDataSource(ctx context.Context, in *tfplugin5.ReadDataSource_Request) (*tfplugin5.ReadDataSource_Response, error) {
	return relay(ctx, in, new(tfplugin6.ReadDataSource_Request), new(tfplugin5.ReadDataSource_Response), s.v6.ReadDataSource)
}

func (s *server5) GetFunctions(ctx context.Context, in *tfplugin5.GetFunctions_Request) (*tfplugin5.GetFunctions_Response, error) {
	return relay(ctx, in, new(tfplugin6.GetFunctions_Request), new(tfplugin5.GetFunctions_Response), s.v6.GetFunctions)
}

func (s *server5) CallFunction(ctx context.Context, in *tfplugin5.CallFunction_Request) (*tfplugin5.CallFunction_Response, error) {
	return relay(ctx, in, new(tfplugin6.CallFunction_Request), new(tfplugin5.CallFunction_Response), s.v6.CallFunction)
}

func (s *server5) Stop(ctx context.Context, in *tfplugin5.Stop_Request) (*tfplugin5.Stop_Response, error) {
	return relay(ctx, in, new(tfplugin6.StopProvider_Request), new(tfplugin5.Stop_Response), s.v6.StopProvider)
}
