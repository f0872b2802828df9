package provisioner

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"golang.org/x/crypto/ssh/agent"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/ssh"

	"github.com/rig-iac/rig/internal/provisioner/sshtest"
)

// object returns a value of spec's type with attrs set and every other
// attribute null.
func object(spec hcldec.Spec, attrs map[string]cty.Value) cty.Value {
	m := map[string]cty.Value{}
	for n, at := range hcldec.ImpliedType(spec).AttributeTypes() {
		m[n] = cty.NullVal(at)
	}
	for n, v := range attrs {
		m[n] = v
	}
	return cty.ObjectVal(m)
}

// connectionTo returns a password connection to s, with extra arguments.
func connectionTo(s *sshtest.Server, extra map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{
		"type":     cty.StringVal("ssh"),
		"host":     cty.StringVal(s.Host),
		"port":     cty.NumberIntVal(int64(s.Port)),
		"user":     cty.StringVal("deploy"),
		"password": cty.StringVal("s3cret"),
		"timeout":  cty.StringVal("5s"),
	}
	for n, v := range extra {
		attrs[n] = v
	}
	return object(ConnectionSpec(), attrs)
}

func startServer(t *testing.T) *sshtest.Server {
	return sshtest.Start(t, sshtest.Options{User: "deploy", Password: "s3cret"})
}

func strings_(ss ...string) cty.Value {
	vs := make([]cty.Value, len(ss))
	for i, s := range ss {
		vs[i] = cty.StringVal(s)
	}
	return cty.ListVal(vs)
}

// recorder collects output lines.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorder) output(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, line)
}

// afterConnected returns the lines after "Connected!".
func (r *recorder) afterConnected(t *testing.T) []string {
	t.Helper()
	for i, l := range r.lines {
		if l == "Connected!" {
			return r.lines[i+1:]
		}
	}
	t.Fatalf("no Connected! line in %q", r.lines)
	return nil
}

func TestRemoteExecInline(t *testing.T) {
	// The banner names whether an SSH agent is offered; none is here.
	t.Setenv("SSH_AUTH_SOCK", "")
	s := startServer(t)
	var out recorder
	req := Request{
		Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo one", "echo two; echo three", "echo \"$0\" > ran-as")}),
		Connection: connectionTo(s, map[string]cty.Value{
			"script_path": cty.StringVal(filepath.Join(s.Dir, "script_%RAND%.sh")),
			"host_key":    cty.StringVal(s.HostKey),
		}),
	}
	if err := (RemoteExecRunner{}).Run(context.Background(), req, out.output); err != nil {
		t.Fatal(err)
	}
	wantConnect := []string{
		"Connecting to remote host via SSH...",
		"  Host: 127.0.0.1",
		"  User: deploy",
		"  Password: true",
		"  Private key: false",
		"  Certificate: false",
		"  SSH Agent: false",
		"  Checking Host Key: true",
		"  Target Platform: unix",
		"Connected!",
	}
	if diff := cmp.Diff(wantConnect, out.lines[:min(len(out.lines), len(wantConnect))]); diff != "" {
		t.Errorf("connection lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"one", "two", "three"}, out.afterConnected(t)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	// The script ran from script_path, which is left empty.
	ranAs, err := os.ReadFile(filepath.Join(s.Dir, "ran-as"))
	if err != nil {
		t.Fatal(err)
	}
	script := strings.TrimSpace(string(ranAs))
	if dir, base := filepath.Split(script); dir != s.Dir+"/" || !strings.HasPrefix(base, "script_") || strings.Contains(base, "%RAND%") {
		t.Errorf("script ran as %q, want %s/script_N.sh", script, s.Dir)
	}
	if b, err := os.ReadFile(script); err != nil || len(b) != 0 {
		t.Errorf("script left behind: %q, %v; want an empty file", b, err)
	}
}

func TestRemoteExecFailure(t *testing.T) {
	s := startServer(t)
	var out recorder
	req := Request{
		Config:     object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo before", "echo oops >&2", "exit 3", "echo after")}),
		Connection: connectionTo(s, map[string]cty.Value{"script_path": cty.StringVal(filepath.Join(s.Dir, "fail.sh"))}),
	}
	err := (RemoteExecRunner{}).Run(context.Background(), req, out.output)
	var re *RemoteError
	if !errors.As(err, &re) || re.ExitStatus != 3 {
		t.Fatalf("error %v, want a RemoteError with exit status 3", err)
	}
	if want := `"` + filepath.Join(s.Dir, "fail.sh") + `" exit status: 3`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	got := out.afterConnected(t)
	if len(got) != 2 || !contains(got, "before") || !contains(got, "oops") {
		t.Errorf("output %q, want before and oops", got)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestRemoteExecScripts(t *testing.T) {
	s := startServer(t)
	local := t.TempDir()
	one, two := filepath.Join(local, "one.sh"), filepath.Join(local, "two.sh")
	os.WriteFile(one, []byte("echo first $((1 + 2))\n"), 0o644)
	os.WriteFile(two, []byte("#!/bin/sh\necho second\n"), 0o644)
	for name, tc := range map[string]struct {
		config map[string]cty.Value
		want   []string
	}{
		"script":  {map[string]cty.Value{"script": cty.StringVal(one)}, []string{"first 3"}},
		"scripts": {map[string]cty.Value{"scripts": strings_(one, two)}, []string{"first 3", "second"}},
	} {
		t.Run(name, func(t *testing.T) {
			var out recorder
			req := Request{Config: object(Spec(RemoteExec), tc.config),
				Connection: connectionTo(s, map[string]cty.Value{"script_path": cty.StringVal(filepath.Join(s.Dir, name+"_%RAND%.sh"))})}
			if err := (RemoteExecRunner{}).Run(context.Background(), req, out.output); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out.afterConnected(t)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("missing script", func(t *testing.T) {
		req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"script": cty.StringVal(filepath.Join(local, "nope.sh"))}),
			Connection: connectionTo(s, nil)}
		err := (RemoteExecRunner{}).Run(context.Background(), req, func(string) {})
		if err == nil || !strings.HasPrefix(err.Error(), "Failed to open script '") {
			t.Errorf("error %v, want Failed to open script", err)
		}
	})
	t.Run("inline and script", func(t *testing.T) {
		req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"script": cty.StringVal(one), "inline": strings_("true")}),
			Connection: connectionTo(s, nil)}
		err := (RemoteExecRunner{}).Run(context.Background(), req, func(string) {})
		if err == nil || err.Error() != `only one of "inline", "script", or "scripts" must be set` {
			t.Errorf("error %v", err)
		}
	})
}

func TestFileContent(t *testing.T) {
	s := startServer(t)
	dst := filepath.Join(s.Dir, "etc", "motd")
	os.Mkdir(filepath.Join(s.Dir, "etc"), 0o755)
	req := Request{Config: object(Spec(File), map[string]cty.Value{"content": cty.StringVal("hello\nworld\n"), "destination": cty.StringVal(dst)}),
		Connection: connectionTo(s, nil)}
	if err := (FileRunner{}).Run(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "hello\nworld\n" {
		t.Errorf("uploaded %q, %v", b, err)
	}
	// Into a directory whose parent does not exist: the sink's error. (As
	// with scp, a missing directory would be taken as the file's name.)
	req.Config = object(Spec(File), map[string]cty.Value{"content": cty.StringVal("x"), "destination": cty.StringVal(filepath.Join(s.Dir, "nope", "deeper", "f"))})
	if err := (FileRunner{}).Run(context.Background(), req, nil); err == nil || !strings.HasPrefix(err.Error(), "Upload failed: scp: ") {
		t.Errorf("error %v, want Upload failed: scp: …", err)
	}
}

func TestFileSource(t *testing.T) {
	s := startServer(t)
	src := filepath.Join(t.TempDir(), "site")
	os.MkdirAll(filepath.Join(src, "css"), 0o755)
	os.WriteFile(filepath.Join(src, "index.html"), []byte("<p>hi</p>"), 0o644)
	os.WriteFile(filepath.Join(src, "css", "a.css"), []byte("p{}"), 0o600)
	for name, tc := range map[string]struct {
		source, destination string
		want                []string // files under destination
	}{
		"file":                 {filepath.Join(src, "index.html"), "index.copy", []string{"index.copy"}},
		"directory":            {src, "with-dir", []string{"with-dir/site/css/a.css", "with-dir/site/index.html"}},
		"directory with slash": {src + "/", "contents", []string{"contents/css/a.css", "contents/index.html"}},
	} {
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(s.Dir, tc.destination)
			if name != "file" {
				os.Mkdir(dst, 0o755)
			}
			req := Request{Config: object(Spec(File), map[string]cty.Value{"source": cty.StringVal(tc.source), "destination": cty.StringVal(dst)}),
				Connection: connectionTo(s, nil)}
			if err := (FileRunner{}).Run(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
			var got []string
			filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(s.Dir, p)
					got = append(got, rel)
				}
				return err
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("mode kept", func(t *testing.T) {
		fi, err := os.Stat(filepath.Join(s.Dir, "contents", "css", "a.css"))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("a.css: %v, %v; want mode 0600", fi, err)
		}
	})
	t.Run("neither source nor content", func(t *testing.T) {
		req := Request{Config: object(Spec(File), map[string]cty.Value{"destination": cty.StringVal("x")}), Connection: connectionTo(s, nil)}
		if err := (FileRunner{}).Run(context.Background(), req, nil); err == nil || err.Error() != "Must provide one of 'source' or 'content'" {
			t.Errorf("error %v", err)
		}
	})
}

func TestPrivateKeyAuth(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, _ := ssh.NewPublicKey(pub)
	s := sshtest.Start(t, sshtest.Options{AuthorizedKey: sshPub})
	var out recorder
	conn := object(ConnectionSpec(), map[string]cty.Value{
		"host":        cty.StringVal(s.Host),
		"port":        cty.NumberIntVal(int64(s.Port)),
		"private_key": cty.StringVal(string(pem.EncodeToMemory(block))),
		"host_key":    cty.StringVal(s.HostKey),
		"script_path": cty.StringVal(filepath.Join(s.Dir, "k.sh")),
		"timeout":     cty.StringVal("5s"),
	})
	req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo key works")}), Connection: conn}
	if err := (RemoteExecRunner{}).Run(context.Background(), req, out.output); err != nil {
		t.Fatal(err)
	}
	if !contains(out.lines, "  User: root") || !contains(out.lines, "  Private key: true") || !contains(out.afterConnected(t), "key works") {
		t.Errorf("output %q", out.lines)
	}
}

// With an SSH agent (SSH_AUTH_SOCK), its keys log in, as OpenTofu uses
// it unless agent = false.
func TestAgentAuth(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = agent.ServeAgent(keyring, c)
			}()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
	sshPub, _ := ssh.NewPublicKey(pub)
	s := sshtest.Start(t, sshtest.Options{AuthorizedKey: sshPub})
	conn := func(extra map[string]cty.Value) cty.Value {
		attrs := map[string]cty.Value{
			"host":        cty.StringVal(s.Host),
			"port":        cty.NumberIntVal(int64(s.Port)),
			"host_key":    cty.StringVal(s.HostKey),
			"script_path": cty.StringVal(filepath.Join(s.Dir, "a.sh")),
			"timeout":     cty.StringVal("2s"),
		}
		for k, v := range extra {
			attrs[k] = v
		}
		return object(ConnectionSpec(), attrs)
	}
	var out recorder
	req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo agent works")}), Connection: conn(nil)}
	if err := (RemoteExecRunner{}).Run(context.Background(), req, out.output); err != nil {
		t.Fatal(err)
	}
	if !contains(out.afterConnected(t), "agent works") || !contains(out.lines, "  SSH Agent: true") {
		t.Errorf("output %q", out.lines)
	}
	// agent = false: no key, no login.
	req.Connection = conn(map[string]cty.Value{"agent": cty.False})
	if err := (RemoteExecRunner{}).Run(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("agent = false logged in, or failed otherwise: %v", err)
	}
}

func TestConnectFailures(t *testing.T) {
	s := startServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := ssh.NewSignerFromKey(otherKey)
	other := string(ssh.MarshalAuthorizedKey(otherSigner.PublicKey()))
	for name, tc := range map[string]struct {
		conn      map[string]cty.Value
		wantStart string
		wantIn    string
	}{
		"closed port": {map[string]cty.Value{"port": cty.NumberIntVal(int64(closed))},
			"timeout - last error: dial tcp 127.0.0.1:" + strconv.Itoa(closed), "connection refused"},
		"host key mismatch": {map[string]cty.Value{"host_key": cty.StringVal(other)},
			"timeout - last error: SSH authentication failed (deploy@127.0.0.1:", "knownhosts: key mismatch"},
		"wrong password": {map[string]cty.Value{"password": cty.StringVal("guess")},
			"timeout - last error: SSH authentication failed (deploy@127.0.0.1:", "unable to authenticate"},
		"windows":        {map[string]cty.Value{"target_platform": cty.StringVal("windows")}, `rig supports target_platform "unix" only, not "windows"`, ""},
		"proxy":          {map[string]cty.Value{"proxy_host": cty.StringVal("127.0.0.1")}, "rig does not support connecting through a proxy", ""},
		"winrm":          {map[string]cty.Value{"type": cty.StringVal("winrm")}, `rig supports connections of type "ssh" only, not "winrm"`, ""},
		"agent identity": {map[string]cty.Value{"agent_identity": cty.StringVal("deploy")}, "rig does not support choosing the SSH agent's key", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.conn["timeout"] = cty.StringVal("1500ms")
			req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("true")}), Connection: connectionTo(s, tc.conn)}
			start := time.Now()
			err := (RemoteExecRunner{}).Run(context.Background(), req, func(string) {})
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantStart) || !strings.Contains(err.Error(), tc.wantIn) {
				t.Errorf("error %v\nwant it to start with %q and hold %q", err, tc.wantStart, tc.wantIn)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("gave up after %s, want about the 1.5s timeout", d)
			}
		})
	}
}

func TestRemoteExecCancel(t *testing.T) {
	s := startServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out recorder
	req := Request{Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo started", "sleep 30")}),
		Connection: connectionTo(s, map[string]cty.Value{"script_path": cty.StringVal(filepath.Join(s.Dir, "c.sh"))})}
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			out.mu.Lock()
			started := contains(out.lines, "started")
			out.mu.Unlock()
			if started {
				cancel()
				return
			}
		}
	}()
	start := time.Now()
	err := (RemoteExecRunner{}).Run(ctx, req, out.output)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopped after %s", d)
	}
}

func TestBastion(t *testing.T) {
	target := startServer(t)
	bastion := sshtest.Start(t, sshtest.Options{User: "jump", Password: "hop"})
	var out recorder
	req := Request{
		Config: object(Spec(RemoteExec), map[string]cty.Value{"inline": strings_("echo behind the bastion")}),
		Connection: connectionTo(target, map[string]cty.Value{
			"script_path":      cty.StringVal(filepath.Join(target.Dir, "b.sh")),
			"host_key":         cty.StringVal(target.HostKey),
			"bastion_host":     cty.StringVal(bastion.Host),
			"bastion_port":     cty.NumberIntVal(int64(bastion.Port)),
			"bastion_user":     cty.StringVal("jump"),
			"bastion_password": cty.StringVal("hop"),
			"bastion_host_key": cty.StringVal(bastion.HostKey),
		}),
	}
	if err := (RemoteExecRunner{}).Run(context.Background(), req, out.output); err != nil {
		t.Fatal(err)
	}
	if !contains(out.lines, "Using configured bastion host...") || !contains(out.lines, "  User: jump") {
		t.Errorf("output %q: want the bastion described", out.lines)
	}
	if diff := cmp.Diff([]string{"behind the bastion"}, out.afterConnected(t)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if n := bastion.Forwards(); n == 0 {
		t.Errorf("the bastion forwarded no connection")
	}
}
