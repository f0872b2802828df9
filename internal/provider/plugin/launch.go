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
	logs := loggingFor(meta)
	cmd := pluginCommand(meta.Path)
	// go-plugin appends rig's environment, then its own variables.
	cmd.Env = logs.env
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  handshake,
		Stderr:           crashOutput(meta),
		VersionedPlugins: map[int]goplugin.PluginSet{5: pluginSet(5), 6: pluginSet(6)},
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		AutoMTLS:         true,
		Logger:           logs.logger,
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
		Logger:           loggingFor(meta).logger,
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

// sdkLogVariables are the variables with which the provider SDKs set their
// own log levels (terraform-plugin-go, the plugin framework, the legacy
// SDK's helper packages, terraform-plugin-mux). Each defaults to TRACE
// when unset, and so does TF_LOG_PROVIDER_<TYPE>, the provider's own logger.
var sdkLogVariables = []string{
	"TF_LOG_SDK",
	"TF_LOG_SDK_PROTO",
	"TF_LOG_SDK_FRAMEWORK",
	"TF_LOG_SDK_HELPER_SCHEMA",
	"TF_LOG_SDK_HELPER_RESOURCE",
	"TF_LOG_SDK_MUX",
}

// pluginLogging is how one provider process logs: the logger go-plugin
// writes its own messages and the process's stderr lines to, and the
// variables put before rig's own environment in the process's (a variable
// the user set wins over one of these).
type pluginLogging struct {
	logger hclog.Logger
	env    []string
}

// providerLogLevel returns the provider log level the user asked for:
// TF_LOG_PROVIDER, else TF_LOG, upper-cased; "" when neither is set or the
// level is OFF.
func providerLogLevel() string {
	level := strings.TrimSpace(os.Getenv("TF_LOG_PROVIDER"))
	if level == "" {
		level = strings.TrimSpace(os.Getenv("TF_LOG"))
	}
	level = strings.ToUpper(level)
	if level == "OFF" {
		return ""
	}
	return level
}

// loggingFor returns how the process of the provider meta describes logs.
//
// With no provider log level set, the plugin SDKs are told to log nothing
// (left to themselves they log everything at TRACE, megabytes per thousand
// calls), and go-plugin gets a logger whose level is Off, so that it does
// not even decode what the process writes to stderr.
//
// With a level, logs go to the file TF_LOG_PATH names (appended), else to
// stderr, at that level: TRACE, DEBUG, INFO, WARN, ERROR, or JSON (TRACE,
// as JSON lines). The SDKs are then told the same level, unless it is
// TRACE or JSON, so that they do not write the lines that would be
// dropped here.
func loggingFor(meta Meta) pluginLogging {
	level := providerLogLevel()
	var sdkLevel string
	switch level {
	case "":
		sdkLevel = "off"
	case "DEBUG", "INFO", "WARN", "ERROR":
		sdkLevel = level
	}
	var env []string
	if sdkLevel != "" {
		for _, v := range sdkLogVariables {
			env = append(env, v+"="+sdkLevel)
		}
		if meta.Provider.Type != "" {
			env = append(env, "TF_LOG_PROVIDER_"+strings.ToUpper(strings.ReplaceAll(meta.Provider.Type, "-", "_"))+"="+sdkLevel)
		}
	}
	return pluginLogging{logger: logBase(level).Named(meta.Provider.ForDisplay()), env: env}
}

var logBases struct {
	mu   sync.Mutex
	key  string
	base hclog.Logger
}

// logBase returns the logger all providers log under at level (see
// loggingFor), made once for each level and TF_LOG_PATH (the variables
// do not change during a run, but they do between tests).
func logBase(level string) hclog.Logger {
	path := os.Getenv("TF_LOG_PATH")
	key := level + "\x00" + path
	logBases.mu.Lock()
	defer logBases.mu.Unlock()
	if logBases.base == nil || logBases.key != key {
		logBases.key, logBases.base = key, newLogBase(level, path)
	}
	return logBases.base
}

func newLogBase(level, path string) hclog.Logger {
	if level == "" {
		return hclog.New(&hclog.LoggerOptions{Name: "provider", Output: io.Discard, Level: hclog.Off})
	}
	var out io.Writer = os.Stderr
	if path != "" {
		// A log file that cannot be opened leaves logs on stderr: logging
		// must not stop a run.
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666); err == nil {
			out = f
		}
	}
	opts := &hclog.LoggerOptions{Name: "provider", Output: out, Level: hclog.LevelFromString(level)}
	if level == "JSON" {
		opts.Level, opts.JSONFormat = hclog.Trace, true
	}
	if opts.Level == hclog.NoLevel {
		opts.Level = hclog.Trace
	}
	return hclog.New(opts)
}
