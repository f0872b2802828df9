package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"google.golang.org/grpc"
)

// The go-plugin handshake every Terraform provider expects: a provider
// started without this variable in its environment refuses to run.
const (
	MagicCookieKey   = "TF_PLUGIN_MAGIC_COOKIE"
	MagicCookieValue = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
)

// maxRecvMsgSize is the largest gRPC message rig accepts from a provider
// (large schemas, such as the AWS provider's, exceed gRPC's 4 MiB default).
const maxRecvMsgSize = 64 << 20

// pluginName is the name under which providers serve their gRPC plugin.
const pluginName = "provider"

// Meta says which provider executable to start.
type Meta struct {
	// Path is the provider executable. It may be empty when the provider is
	// reattached through TF_REATTACH_PROVIDERS.
	Path string
	// Provider is the provider's source address, used for reattachment,
	// logs and messages.
	Provider addrs.Provider
	// Version is the provider's version (from the mirror's directory
	// names), for logs and messages; it may be empty.
	Version string
}

// String names the provider for messages: "hashicorp/null v3.2.4".
func (m Meta) String() string {
	if m.Version == "" {
		return m.Provider.ForDisplay()
	}
	return m.Provider.ForDisplay() + " v" + m.Version
}

// Factory returns a provider.Factory that starts a new plugin process for
// meta each time it is called (one process per provider instance), or
// attaches to the running process TF_REATTACH_PROVIDERS names for
// meta.Provider. TF_REATTACH_PROVIDERS is read when the factory is called.
func Factory(meta Meta) provider.Factory {
	return func() (provider.Interface, error) {
		p, err := Start(meta)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// Start launches (or reattaches to) the provider meta describes and returns
// the connected client. The caller owns the result and must Close it.
func Start(meta Meta) (*Provider, error) {
	reattach, err := ParseReattachProviders(os.Getenv(ReattachEnv))
	if err != nil {
		return nil, fmt.Errorf("start provider %s: %w", meta, err)
	}
	if rc, ok := reattach[meta.Provider]; ok {
		return attach(meta, rc)
	}
	if meta.Path == "" {
		return nil, fmt.Errorf("start provider %s: no executable", meta)
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  handshake,
		Stderr:           crashOutput(meta),
		VersionedPlugins: map[int]goplugin.PluginSet{5: pluginSet(5), 6: pluginSet(6)},
		Cmd:              pluginCommand(meta.Path),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		AutoMTLS:         true,
		Logger:           pluginLogger(meta),
		GRPCDialOptions:  dialOptions(),
	})
	p, err := connect(meta, client)
	if err != nil {
		return nil, fmt.Errorf("start provider %s (%s): %w", meta, meta.Path, err)
	}
	return p, nil
}

// attach connects to a provider process that runs on its own (a provider
// being debugged, or under a test harness).
func attach(meta Meta, rc ReattachConfig) (*Provider, error) {
	version := rc.ProtocolVersion
	if version == 0 {
		// Older SDKs leave the version out; they all speak protocol 5.
		version = 5
	}
	set := pluginSet(version)
	if set == nil {
		return nil, fmt.Errorf("attach provider %s: unsupported protocol version %d", meta, rc.ProtocolVersion)
	}
	cfg, err := rc.goPlugin()
	if err != nil {
		return nil, fmt.Errorf("attach provider %s: %w", meta, err)
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          set,
		Reattach:         cfg,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          false,
		Logger:           pluginLogger(meta),
		GRPCDialOptions:  dialOptions(),
	})
	p, err := connect(meta, client)
	if err != nil {
		return nil, fmt.Errorf("attach provider %s at %s: %w", meta, rc.Addr.String, err)
	}
	return p, nil
}

// connect starts or attaches the client and dispenses the provider; on
// failure it kills the client.
func connect(meta Meta, client *goplugin.Client) (*Provider, error) {
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		return nil, err
	}
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		client.Kill()
		return nil, err
	}
	proto, ok := raw.(protocol)
	if !ok {
		client.Kill()
		return nil, fmt.Errorf("unexpected plugin client %T", raw)
	}
	return &Provider{meta: meta, client: client, proto: proto}, nil
}

// CleanupClients kills every provider process started by Start that is
// still running. Call it once when rig exits, also on panics and signals.
func CleanupClients() { goplugin.CleanupClients() }

var handshake = goplugin.HandshakeConfig{
	// ProtocolVersion is go-plugin's legacy single version; VersionedPlugins
	// supersedes it for launched processes.
	ProtocolVersion:  5,
	MagicCookieKey:   MagicCookieKey,
	MagicCookieValue: MagicCookieValue,
}

func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxRecvMsgSize))}
}

// pluginSet returns the go-plugin plugin set of one protocol version, or nil.
func pluginSet(version int) goplugin.PluginSet {
	switch version {
	case 5:
		return goplugin.PluginSet{pluginName: grpcPlugin5{}}
	case 6:
		return goplugin.PluginSet{pluginName: grpcPlugin6{}}
	}
	return nil
}

// errNotServer is returned when go-plugin asks rig to serve a provider.
var errNotServer = errors.New("rig is a plugin client only")

// grpcPlugin5 dispenses protocol-5 clients.
type grpcPlugin5 struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcPlugin5) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return errNotServer }

func (grpcPlugin5) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &client5{rpc: tfplugin5.NewProviderClient(conn)}, nil
}

// grpcPlugin6 dispenses protocol-6 clients.
type grpcPlugin6 struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcPlugin6) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return errNotServer }

func (grpcPlugin6) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &client6{rpc: tfplugin6.NewProviderClient(conn)}, nil
}

var (
	logOnce sync.Once
	logBase hclog.Logger
)

// pluginLogger returns the logger for one provider's plugin machinery and
// its stderr. Logs are discarded unless TF_LOG (or TF_LOG_PROVIDER) sets a
// level: TRACE, DEBUG, INFO, WARN, ERROR, or JSON (trace, as JSON lines).
// They go to the file TF_LOG_PATH names (appended), else to stderr.
func pluginLogger(meta Meta) hclog.Logger {
	logOnce.Do(func() { logBase = newLogBase() })
	return logBase.Named(meta.Provider.ForDisplay())
}

func newLogBase() hclog.Logger {
	level := strings.TrimSpace(os.Getenv("TF_LOG_PROVIDER"))
	if level == "" {
		level = strings.TrimSpace(os.Getenv("TF_LOG"))
	}
	if level == "" || strings.EqualFold(level, "off") {
		return hclog.NewNullLogger()
	}
	var out io.Writer = os.Stderr
	if path := os.Getenv("TF_LOG_PATH"); path != "" {
		// A log file that cannot be opened leaves logs on stderr: logging
		// must not stop a run.
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666); err == nil {
			out = f
		}
	}
	opts := &hclog.LoggerOptions{Name: "provider", Output: out, Level: hclog.LevelFromString(level)}
	if strings.EqualFold(level, "json") {
		opts.Level, opts.JSONFormat = hclog.Trace, true
	}
	if opts.Level == hclog.NoLevel {
		opts.Level = hclog.Trace
	}
	return hclog.New(opts)
}
