package plugin

import (
	"encoding/json"
	"fmt"
	"net"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/rig-iac/rig/internal/addrs"
)

// ReattachEnv names the environment variable that lists providers already
// running on their own (a provider under a debugger, or a provider's
// acceptance-test harness), which rig attaches to instead of starting them.
const ReattachEnv = "TF_REATTACH_PROVIDERS"

// ReattachConfig is how to reach one running provider: one value of the
// TF_REATTACH_PROVIDERS JSON object, whose keys are provider source
// addresses ("hashicorp/null" or "registry.terraform.io/hashicorp/null").
type ReattachConfig struct {
	// Protocol is the go-plugin protocol, "grpc".
	Protocol string
	// ProtocolVersion is the plugin protocol major version, 5 or 6; 0 means 5.
	ProtocolVersion int
	// Pid is the provider's process id.
	Pid int
	// Test says that the provider runs in go-plugin's test mode: closing the
	// client leaves the process running.
	Test bool
	// Addr is where the provider listens.
	Addr ReattachAddr
}

// ReattachAddr is a listening address: Network "unix" or "tcp".
type ReattachAddr struct {
	Network string
	String  string
}

// ParseReattachProviders parses the value of TF_REATTACH_PROVIDERS. An
// empty string yields an empty map.
func ParseReattachProviders(s string) (map[addrs.Provider]ReattachConfig, error) {
	out := map[addrs.Provider]ReattachConfig{}
	if s == "" {
		return out, nil
	}
	var m map[string]ReattachConfig
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("invalid %s: %w", ReattachEnv, err)
	}
	for key, rc := range m {
		p, err := addrs.ParseProviderSource(key)
		if err != nil {
			return nil, fmt.Errorf("invalid %s: %w", ReattachEnv, err)
		}
		if _, err := rc.goPlugin(); err != nil {
			return nil, fmt.Errorf("invalid %s: provider %q: %w", ReattachEnv, key, err)
		}
		out[p] = rc
	}
	return out, nil
}

// goPlugin converts rc into go-plugin's form, resolving the address.
func (rc ReattachConfig) goPlugin() (*goplugin.ReattachConfig, error) {
	var addr net.Addr
	var err error
	switch rc.Addr.Network {
	case "unix":
		addr, err = net.ResolveUnixAddr("unix", rc.Addr.String)
	case "tcp":
		addr, err = net.ResolveTCPAddr("tcp", rc.Addr.String)
	default:
		return nil, fmt.Errorf("unsupported address network %q (want unix or tcp)", rc.Addr.Network)
	}
	if err != nil {
		return nil, fmt.Errorf("invalid address %q: %w", rc.Addr.String, err)
	}
	proto := goplugin.Protocol(rc.Protocol)
	if proto == "" {
		proto = goplugin.ProtocolGRPC
	}
	if proto != goplugin.ProtocolGRPC {
		return nil, fmt.Errorf("unsupported protocol %q (want grpc)", rc.Protocol)
	}
	return &goplugin.ReattachConfig{
		Protocol:        proto,
		ProtocolVersion: rc.ProtocolVersion,
		Addr:            addr,
		Pid:             rc.Pid,
		Test:            rc.Test,
	}, nil
}
