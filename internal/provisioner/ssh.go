//lint:file-ignore ST1005 its errors are messages users see, worded as OpenTofu words them.

package provisioner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// The defaults of a connection's arguments, as OpenTofu's.
const (
	defaultUser       = "root"
	defaultPort       = 22
	defaultTimeout    = 5 * time.Minute
	defaultScriptPath = "/tmp/terraform_%RAND%.sh"
)

// The delays between attempts to connect: the first retry after a second,
// each following one after twice as long, at most 10s.
const (
	firstRetryDelay = time.Second
	maxRetryDelay   = 10 * time.Second
)

// connInfo is a decoded ssh connection, defaults applied. Bastion
// arguments default to the host's.
type connInfo struct {
	host, user, password, privateKey, certificate, hostKey string
	port                                                   int
	timeout                                                time.Duration
	scriptPath                                             string

	bastionHost, bastionUser, bastionPassword, bastionPrivateKey, bastionCertificate, bastionHostKey string
	bastionPort                                                                                      int
	// agent is set when the SSH agent of SSH_AUTH_SOCK offers its keys.
	agent bool
}

// parseConnection decodes v, a value of ConnectionSpec(), as OpenTofu does
// for an ssh connection. An invalid timeout is the default, as in OpenTofu.
func parseConnection(v cty.Value) (*connInfo, error) {
	if v.IsNull() {
		return nil, errors.New("missing connection configuration for provisioner")
	}
	if t := connString(v, "type"); t != "" && t != "ssh" {
		return nil, fmt.Errorf("rig supports connections of type \"ssh\" only, not %q", t)
	}
	if p := connString(v, "target_platform"); p != "" && p != "unix" {
		return nil, fmt.Errorf("rig supports target_platform \"unix\" only, not %q", p)
	}
	if connString(v, "agent_identity") != "" {
		return nil, errors.New("rig does not support choosing the SSH agent's key (agent_identity): the agent offers all its keys")
	}
	if connString(v, "proxy_host") != "" {
		return nil, errors.New("rig does not support connecting through a proxy (proxy_host)")
	}
	ci := &connInfo{
		host: connString(v, "host"), user: connString(v, "user"), password: connString(v, "password"),
		privateKey: connString(v, "private_key"), certificate: connString(v, "certificate"), hostKey: connString(v, "host_key"),
		scriptPath: connString(v, "script_path"), timeout: defaultTimeout,
		bastionHost: connString(v, "bastion_host"), bastionUser: connString(v, "bastion_user"),
		bastionPassword: connString(v, "bastion_password"), bastionPrivateKey: connString(v, "bastion_private_key"),
		bastionCertificate: connString(v, "bastion_certificate"), bastionHostKey: connString(v, "bastion_host_key"),
	}
	var err error
	// The SSH agent is used unless agent = false, when there is one
	// (SSH_AUTH_SOCK), as OpenTofu does.
	ci.agent = os.Getenv("SSH_AUTH_SOCK") != ""
	if a := v.GetAttr("agent"); !a.IsNull() && a.IsKnown() {
		ci.agent = ci.agent && a.True()
	}
	if ci.port, err = connPort(v, "port"); err != nil {
		return nil, err
	}
	if ci.bastionPort, err = connPort(v, "bastion_port"); err != nil {
		return nil, err
	}
	if ci.user == "" {
		ci.user = defaultUser
	}
	if ci.host == "" {
		return nil, errors.New("host for provisioner cannot be empty")
	}
	if ci.port == 0 {
		ci.port = defaultPort
	}
	if ci.scriptPath == "" {
		ci.scriptPath = defaultScriptPath
	}
	if t := connString(v, "timeout"); t != "" {
		if d, err := time.ParseDuration(t); err == nil {
			ci.timeout = d
		}
	}
	if ci.bastionHost != "" {
		ci.bastionUser = cmpOr(ci.bastionUser, ci.user)
		ci.bastionPassword = cmpOr(ci.bastionPassword, ci.password)
		ci.bastionPrivateKey = cmpOr(ci.bastionPrivateKey, ci.privateKey)
		ci.bastionCertificate = cmpOr(ci.bastionCertificate, ci.certificate)
		if ci.bastionPort == 0 {
			ci.bastionPort = ci.port
		}
	}
	return ci, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func connString(v cty.Value, name string) string {
	a := v.GetAttr(name)
	if a.IsNull() || !a.IsKnown() {
		return ""
	}
	return a.AsString()
}

func connPort(v cty.Value, name string) (int, error) {
	a := v.GetAttr(name)
	if a.IsNull() {
		return 0, nil
	}
	f := a.AsBigFloat()
	n, acc := f.Int64()
	if acc != big.Exact || n < 0 || n > 65535 {
		return 0, fmt.Errorf("%s: %s is not a port number", name, f.Text('f', -1))
	}
	return int(n), nil
}

// hostAddr joins host and port, bracketing an IPv6 address.
func hostAddr(host string, port int) string {
	return net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(port))
}

// describe returns the lines OpenTofu prints before it connects.
func (ci *connInfo) describe() []string {
	lines := []string{
		"Connecting to remote host via SSH...",
		"  Host: " + ci.host,
		"  User: " + ci.user,
		fmt.Sprintf("  Password: %t", ci.password != ""),
		fmt.Sprintf("  Private key: %t", ci.privateKey != ""),
		fmt.Sprintf("  Certificate: %t", ci.certificate != ""),
		fmt.Sprintf("  SSH Agent: %t", ci.agent),
		fmt.Sprintf("  Checking Host Key: %t", ci.hostKey != ""),
		"  Target Platform: unix",
	}
	if ci.bastionHost != "" {
		lines = append(lines,
			"Using configured bastion host...",
			"  Host: "+ci.bastionHost,
			"  User: "+ci.bastionUser,
			fmt.Sprintf("  Password: %t", ci.bastionPassword != ""),
			fmt.Sprintf("  Private key: %t", ci.bastionPrivateKey != ""),
			fmt.Sprintf("  Certificate: %t", ci.bastionCertificate != ""),
			fmt.Sprintf("  SSH Agent: %t", ci.agent),
			fmt.Sprintf("  Checking Host Key: %t", ci.bastionHostKey != ""))
	}
	return lines
}

// clientConfig builds the client configuration of one hop. A configuration
// error (an unreadable key) is returned as it is: retrying cannot help.
func clientConfig(user, password, privateKey, certificate, hostKey string) (*ssh.ClientConfig, error) {
	conf := &ssh.ClientConfig{User: user, HostKeyCallback: ssh.InsecureIgnoreHostKey()} //nolint:gosec // as OpenTofu without host_key
	if hostKey != "" {
		want, _, _, _, err := ssh.ParseAuthorizedKey([]byte(hostKey))
		if err != nil {
			return nil, fmt.Errorf("failed to parse host_key: %w", err)
		}
		// host_key is the host's key, or the key of the authority that
		// signed the host's certificate.
		same := func(k ssh.PublicKey) bool { return bytes.Equal(k.Marshal(), want.Marshal()) }
		checker := &ssh.CertChecker{
			IsHostAuthority: func(auth ssh.PublicKey, _ string) bool { return same(auth) },
			HostKeyFallback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
				if same(key) {
					return nil
				}
				return errors.New("knownhosts: key mismatch")
			},
		}
		conf.HostKeyCallback = checker.CheckHostKey
	}
	if privateKey != "" {
		signer, err := ssh.ParsePrivateKey([]byte(privateKey))
		if err != nil {
			var missing *ssh.PassphraseMissingError
			if errors.As(err, &missing) {
				return nil, errors.New("Failed to read ssh private key: password protected keys are\nnot supported. Please decrypt the key prior to use.")
			}
			return nil, fmt.Errorf("Failed to parse ssh private key: %w", err)
		}
		if certificate != "" {
			pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(certificate))
			if err != nil {
				return nil, fmt.Errorf("failed to parse certificate %q: %w", certificate, err)
			}
			cert, ok := pub.(*ssh.Certificate)
			if !ok {
				return nil, errors.New("must use a certificate algorithm, not a plain public key algorithm")
			}
			if signer, err = ssh.NewCertSigner(cert, signer); err != nil {
				return nil, fmt.Errorf("failed to create cert signer: %w", err)
			}
		}
		conf.Auth = append(conf.Auth, ssh.PublicKeys(signer))
	}
	if password != "" {
		conf.Auth = append(conf.Auth, ssh.Password(password), ssh.KeyboardInteractive(
			func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = password
				}
				return answers, nil
			}))
	}
	return conf, nil
}

// client is an established connection, through its bastion if any.
type client struct {
	*ssh.Client
	bastion *ssh.Client
}

// Close closes the connection and the bastion's.
func (c *client) Close() error {
	err := c.Client.Close()
	if c.bastion != nil {
		c.bastion.Close()
	}
	return err
}

// connect connects as ci says, trying again after each failure (with a
// growing delay) until ci's timeout: OpenTofu retries every failure, an
// authentication failure too, since a new host may accept logins only some
// time after it listens. output receives the lines OpenTofu prints before
// each attempt; it may be nil.
func connect(ctx context.Context, ci *connInfo, output func(string)) (*client, error) {
	conf, err := clientConfig(ci.user, ci.password, ci.privateKey, ci.certificate, ci.hostKey)
	if err != nil {
		return nil, err
	}
	var bastionConf *ssh.ClientConfig
	if ci.bastionHost != "" {
		bastionConf, err = clientConfig(ci.bastionUser, ci.bastionPassword, ci.bastionPrivateKey, ci.bastionCertificate, ci.bastionHostKey)
		if err != nil {
			return nil, err
		}
	}
	if ci.agent {
		// The agent is needed only to log in: its connection ends with connect.
		ac, err := net.Dial("unix", os.Getenv("SSH_AUTH_SOCK"))
		if err != nil {
			return nil, fmt.Errorf("Error connecting to SSH_AUTH_SOCK: %w", err)
		}
		defer ac.Close()
		signers := ssh.PublicKeysCallback(agent.NewClient(ac).Signers)
		conf.Auth = append(conf.Auth, signers)
		if bastionConf != nil {
			bastionConf.Auth = append(bastionConf.Auth, signers)
		}
	}
	deadline := time.Now().Add(ci.timeout)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	// The deadline may have passed before ctx says so: its timer races
	// with the retry delay's.
	expired := func() bool { return !time.Now().Before(deadline) }
	var delay time.Duration
	var lastErr error
	for {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
		if ctx.Err() != nil || expired() {
			if ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("timeout - last error: %v", lastErr)
			}
			return nil, fmt.Errorf("interrupted - last error: %v", lastErr)
		}
		if output != nil {
			for _, l := range ci.describe() {
				output(l)
			}
		}
		c, err := dial(ctx, ci, conf, bastionConf)
		if err == nil {
			if output != nil {
				output("Connected!")
			}
			return c, nil
		}
		// An attempt cut short by the deadline says less than the one
		// before it.
		if lastErr == nil || (ctx.Err() == nil && !expired()) {
			lastErr = err
		}
		delay = min(max(2*delay, firstRetryDelay), maxRetryDelay)
	}
}

// dial makes one attempt to connect.
func dial(ctx context.Context, ci *connInfo, conf, bastionConf *ssh.ClientConfig) (*client, error) {
	addr := hostAddr(ci.host, ci.port)
	if bastionConf == nil {
		c, err := handshake(ctx, addr, conf, func() (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		})
		if err != nil {
			return nil, err
		}
		return &client{Client: c}, nil
	}
	baddr := hostAddr(ci.bastionHost, ci.bastionPort)
	b, err := handshake(ctx, baddr, bastionConf, func() (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", baddr)
	})
	if err != nil {
		return nil, fmt.Errorf("bastion: %w", err)
	}
	c, err := handshake(ctx, addr, conf, func() (net.Conn, error) { return b.Dial("tcp", addr) })
	if err != nil {
		b.Close()
		return nil, err
	}
	return &client{Client: c, bastion: b}, nil
}

// handshake opens a connection with open and runs the SSH handshake on it,
// within ctx's deadline.
func handshake(ctx context.Context, addr string, conf *ssh.ClientConfig, open func() (net.Conn, error)) (*ssh.Client, error) {
	nc, err := open()
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	c, chans, reqs, err := ssh.NewClientConn(nc, addr, conf)
	if !stop() {
		if err == nil {
			c.Close()
		}
		return nil, ctx.Err()
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("SSH authentication failed (%s@%s): %w", conf.User, addr, err)
	}
	_ = nc.SetDeadline(time.Time{})
	return ssh.NewClient(c, chans, reqs), nil
}
