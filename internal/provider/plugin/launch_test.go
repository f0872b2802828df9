package plugin

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func TestFactoryStartsOneProcessPerInstance(t *testing.T) {
	t.Setenv("RIG_TESTPROVIDER_PROTOCOL", "")
	f := Factory(Meta{Path: testProviderBin, Provider: testAddr})
	var pids []int
	for range 2 {
		inst, err := f()
		if err != nil {
			t.Fatalf("factory: %v", err)
		}
		p := inst.(*Provider)
		pids = append(pids, p.client.ReattachConfig().Pid)
		if err := inst.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if pids[0] == pids[1] {
		t.Errorf("both instances ran in process %d", pids[0])
	}
}

func TestStartErrors(t *testing.T) {
	tests := []struct {
		name     string
		meta     Meta
		reattach string
		want     string
	}{
		{"no executable", Meta{Provider: testAddr}, "", "start provider rig/test: no executable"},
		{"missing executable", Meta{Path: filepath.Join(t.TempDir(), "nope"), Provider: testAddr, Version: "1.0.0"}, "", "start provider rig/test v1.0.0 ("},
		{"not a plugin", Meta{Path: "/bin/true", Provider: testAddr}, "", "start provider rig/test (/bin/true): "},
		{"bad reattach variable", Meta{Path: testProviderBin, Provider: testAddr}, "{", "start provider rig/test: invalid TF_REATTACH_PROVIDERS: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(ReattachEnv, tt.reattach)
			p, err := Start(tt.meta)
			if err == nil {
				p.Close()
				t.Fatalf("Start succeeded")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestCloseEndsProcess(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		pid := p.client.ReattachConfig().Pid
		if _, ds := p.GetProviderSchema(context.Background()); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		if err := p.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if !p.Exited() || !processGone(pid) {
			t.Errorf("provider process %d still running after Close", pid)
		}
		if err := p.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		// Calls after Close fail with diagnostics, not panics.
		resp := p.ReadDataSource(context.Background(), provider.ReadDataRequest{TypeName: "test_echo", Config: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x"), "output": cty.NullVal(cty.String)})})
		if !resp.Diagnostics.HasErrors() {
			t.Errorf("ReadDataSource after Close succeeded")
		}
	})
}

func TestCrashedProvider(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		crash := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("crash"), "output": cty.NullVal(cty.String)})
		resp := p.ReadDataSource(ctx, provider.ReadDataRequest{TypeName: "test_echo", Config: crash})
		if got := details(resp.Diagnostics); len(got) != 1 || !strings.HasPrefix(got[0], "error: Plugin did not respond: The provider rig/test v0.0.1 did not respond to the ReadDataSource call") {
			t.Errorf("diagnostics = %q", got)
		}
		if ds := p.ValidateResourceConfig(ctx, "test_thing", thingConfig(cty.StringVal("a"), nil)); !ds.HasErrors() {
			t.Errorf("a call to a crashed provider succeeded")
		}
		if err := p.Stop(ctx); err == nil {
			t.Errorf("Stop of a crashed provider succeeded")
		}
	})
}

// startDebug runs the test provider on its own (-debug) and returns its
// TF_REATTACH_PROVIDERS value and its command, which the caller waits for.
func startDebug(t *testing.T, version string, testMode bool) (string, *exec.Cmd, chan error) {
	t.Helper()
	cmd := exec.Command(testProviderBin, "-debug", "-debug-test="+map[bool]string{true: "true", false: "false"}[testMode])
	cmd.Env = append(os.Environ(), "RIG_TESTPROVIDER_PROTOCOL="+version)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "TF_REATTACH_PROVIDERS="); ok {
				line <- v
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	select {
	case v := <-line:
		return v, cmd, exited
	case err := <-exited:
		t.Fatalf("debug provider exited: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatalf("debug provider printed no reattach line")
	}
	return "", nil, nil
}

func TestReattach(t *testing.T) {
	for _, tt := range []struct {
		name     string
		version  string
		testMode bool
	}{
		{"protocol5 test mode", "5", true},
		{"protocol6 test mode", "6", true},
		{"protocol6", "6", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reattach, cmd, exited := startDebug(t, tt.version, tt.testMode)
			t.Setenv(ReattachEnv, reattach)
			// No executable: the provider is only reachable by reattaching.
			p, err := Start(Meta{Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "rig", Type: "test"}})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			if got, want := p.ProtocolVersion(), map[string]int{"5": 5, "6": 6}[tt.version]; got != want {
				t.Errorf("ProtocolVersion = %d, want %d", got, want)
			}
			resp := p.ImportResourceState(context.Background(), provider.ImportRequest{TypeName: "test_thing", ID: "r"})
			if resp.Diagnostics.HasErrors() || len(resp.Imported) != 1 {
				t.Fatalf("ImportResourceState through reattach: %v", resp.Diagnostics)
			}
			if err := p.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			select {
			case <-exited:
				if tt.testMode {
					t.Errorf("Close ended a provider reattached in test mode")
				}
			case <-time.After(map[bool]time.Duration{true: 500 * time.Millisecond, false: 5 * time.Second}[tt.testMode]):
				if !tt.testMode {
					t.Errorf("Close did not end the reattached provider %d", cmd.Process.Pid)
				}
			}
		})
	}
}

func TestParseReattachProviders(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	tests := []struct {
		name    string
		in      string
		want    map[addrs.Provider]ReattachConfig
		wantErr string
	}{
		{"empty", "", map[addrs.Provider]ReattachConfig{}, ""},
		{
			name: "unix socket, short address",
			in:   `{"hashicorp/null":{"Protocol":"grpc","ProtocolVersion":5,"Pid":42,"Test":true,"Addr":{"Network":"unix","String":"/tmp/plugin1"}}}`,
			want: map[addrs.Provider]ReattachConfig{null: {Protocol: "grpc", ProtocolVersion: 5, Pid: 42, Test: true, Addr: ReattachAddr{Network: "unix", String: "/tmp/plugin1"}}},
		},
		{
			name: "tcp, full address",
			in:   `{"registry.terraform.io/hashicorp/null":{"Protocol":"grpc","ProtocolVersion":6,"Pid":7,"Addr":{"Network":"tcp","String":"127.0.0.1:1234"}}}`,
			want: map[addrs.Provider]ReattachConfig{null: {Protocol: "grpc", ProtocolVersion: 6, Pid: 7, Addr: ReattachAddr{Network: "tcp", String: "127.0.0.1:1234"}}},
		},
		{name: "not JSON", in: `nope`, wantErr: "invalid TF_REATTACH_PROVIDERS: invalid character"},
		{name: "bad address", in: `{"a//b":{"Addr":{"Network":"unix","String":"/x"}}}`, wantErr: `invalid TF_REATTACH_PROVIDERS: invalid provider source "a//b"`},
		{name: "bad network", in: `{"null":{"Addr":{"Network":"udp","String":"x"}}}`, wantErr: `invalid TF_REATTACH_PROVIDERS: provider "null": unsupported address network "udp"`},
		{name: "net/rpc", in: `{"null":{"Protocol":"netrpc","Addr":{"Network":"unix","String":"/x"}}}`, wantErr: `invalid TF_REATTACH_PROVIDERS: provider "null": unsupported protocol "netrpc"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReattachProviders(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want prefix %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLogging(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rig.log")
	t.Setenv("TF_LOG", "debug")
	t.Setenv("TF_LOG_PROVIDER", "")
	t.Setenv("TF_LOG_PATH", path)
	loggingFor(Meta{Provider: testAddr}).logger.Debug("hello from a plugin")
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "hello from a plugin") {
		t.Errorf("log file = %q, %v", b, err)
	}

	t.Setenv("TF_LOG", "")
	if l := loggingFor(Meta{Provider: testAddr}).logger; l.IsError() || l.GetLevel() != hclog.Off {
		t.Errorf("without TF_LOG the logger logs (level %s): go-plugin would decode every line the provider writes", l.GetLevel())
	}
}

// unsetenv unsets name for the rest of the test.
func unsetenv(t *testing.T, name string) {
	t.Setenv(name, "")
	os.Unsetenv(name)
}

// processEnv returns the environment of process pid, read from /proc.
func processEnv(t *testing.T, pid int) map[string]string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Skipf("cannot read a process's environment here: %v", err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(b), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

func TestProviderLogLevels(t *testing.T) {
	quiet := map[string]string{}
	for _, v := range append(slices.Clone(sdkLogVariables), "TF_LOG_PROVIDER_TEST") {
		quiet[v] = "off"
	}
	tests := []struct {
		name string
		env  map[string]string // "" unsets
		want map[string]string // the SDK variables of the provider's process ("" absent)
	}{
		{"no level", map[string]string{"TF_LOG": "", "TF_LOG_PROVIDER": ""}, quiet},
		{"TF_LOG=off", map[string]string{"TF_LOG": "off", "TF_LOG_PROVIDER": ""}, quiet},
		{"TF_LOG=trace", map[string]string{"TF_LOG": "trace", "TF_LOG_PROVIDER": ""}, map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_TEST": ""}},
		{"TF_LOG=json", map[string]string{"TF_LOG": "json", "TF_LOG_PROVIDER": ""}, map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_TEST": ""}},
		{"TF_LOG_PROVIDER=info", map[string]string{"TF_LOG": "", "TF_LOG_PROVIDER": "info"}, map[string]string{"TF_LOG_SDK": "INFO", "TF_LOG_SDK_PROTO": "INFO", "TF_LOG_PROVIDER_TEST": "INFO"}},
		{"the user's own SDK level wins", map[string]string{"TF_LOG": "", "TF_LOG_PROVIDER": "", "TF_LOG_SDK_PROTO": "trace"},
			map[string]string{"TF_LOG_SDK": "off", "TF_LOG_SDK_PROTO": "trace", "TF_LOG_PROVIDER_TEST": "off"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range append(slices.Clone(sdkLogVariables), "TF_LOG_PROVIDER_TEST", "TF_LOG_PATH") {
				unsetenv(t, v)
			}
			for k, v := range tt.env {
				if v == "" {
					unsetenv(t, k)
				} else {
					t.Setenv(k, v)
				}
			}
			p := startTest(t, "")
			env := processEnv(t, p.client.ReattachConfig().Pid)
			for k, want := range tt.want {
				if got := env[k]; got != want {
					t.Errorf("%s = %q in the provider's environment, want %q", k, got, want)
				}
			}
		})
	}
}

func TestProviderLogsReachLogPath(t *testing.T) {
	for _, tt := range []struct {
		name, level string
		want        []string // messages in the log file
		notWant     []string
	}{
		{"debug", "debug", []string{"configured region eu"}, []string{"call ConfigureProvider"}},
		{"trace", "trace", []string{"configured region eu", "call ConfigureProvider"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rig.log")
			unsetenv(t, "TF_LOG")
			t.Setenv("TF_LOG_PROVIDER", tt.level)
			t.Setenv("TF_LOG_PATH", path)
			p := startTest(t, "6")
			if ds := p.ConfigureProvider(context.Background(), provider.ConfigureRequest{Config: cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("eu")})}); ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("the log file has no %q:\n%s", w, b)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(string(b), w) {
					t.Errorf("the log file has %q:\n%s", w, b)
				}
			}
		})
	}
}
