// Package sshtest owns an SSH server for tests: it listens on 127.0.0.1,
// authenticates one user by password or public key, runs each "exec"
// request with /bin/sh -c in a directory of its own and receives uploads
// with the sink side of the SCP protocol, the way the file and remote-exec
// provisioners use a host.
//
// It imports no rig package.
package sshtest

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh"
)

// Options says whom a Server lets in.
type Options struct {
	// User is the only user accepted, "root" when empty.
	User string
	// Password is the user's password; empty accepts no password.
	Password string
	// AuthorizedKey is a key the user may log in with; nil accepts none.
	AuthorizedKey ssh.PublicKey
}

// Server is a running SSH server. Its fields are set by Start and read
// only afterwards.
type Server struct {
	// Host and Port are where it listens.
	Host string
	Port int
	// Dir is the directory commands run in, removed at the end of the
	// test.
	Dir string
	// HostKey is its host key in authorized_keys format, as a connection's
	// host_key gives it.
	HostKey string

	opts     Options
	config   *ssh.ServerConfig
	ln       net.Listener
	wg       sync.WaitGroup
	forwards atomic.Int64
}

// Forwards returns how many connections the server has forwarded for its
// clients ("direct-tcpip" channels, as a bastion host does).
func (s *Server) Forwards() int { return int(s.forwards.Load()) }

// Start starts a server for the length of t with a new ed25519 host key.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.User == "" {
		opts.User = "root"
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Host: "127.0.0.1", Dir: t.TempDir(), opts: opts,
		HostKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))}
	s.config = &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if c.User() == opts.User && opts.Password != "" && string(pw) == opts.Password {
				return nil, nil
			}
			return nil, errors.New("wrong password")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if c.User() == opts.User && opts.AuthorizedKey != nil && string(key.Marshal()) == string(opts.AuthorizedKey.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("key not authorized")
		},
	}
	s.config.AddHostKey(signer)
	s.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Port = s.ln.Addr().(*net.TCPAddr).Port
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() {
		s.ln.Close()
		s.wg.Wait()
	})
	return s
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		go s.handle(nc)
	}
}

func (s *Server) handle(nc net.Conn) {
	defer nc.Close()
	_, chans, reqs, err := ssh.NewServerConn(nc, s.config)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nch := range chans {
		if nch.ChannelType() == "direct-tcpip" {
			go s.forward(nch)
			continue
		}
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.UnknownChannelType, "only sessions and forwarding")
			continue
		}
		ch, chReqs, err := nch.Accept()
		if err != nil {
			return
		}
		go s.session(ch, chReqs)
	}
}

// forward connects a "direct-tcpip" channel to the address it names, which
// must be on 127.0.0.1.
func (s *Server) forward(nch ssh.NewChannel) {
	var to struct {
		Host       string
		Port       uint32
		OriginHost string
		OriginPort uint32
	}
	if err := ssh.Unmarshal(nch.ExtraData(), &to); err != nil || to.Host != "127.0.0.1" {
		_ = nch.Reject(ssh.Prohibited, "only 127.0.0.1")
		return
	}
	nc, err := net.Dial("tcp", net.JoinHostPort(to.Host, strconv.Itoa(int(to.Port))))
	if err != nil {
		_ = nch.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nch.Accept()
	if err != nil {
		nc.Close()
		return
	}
	s.forwards.Add(1)
	go ssh.DiscardRequests(reqs)
	go func() {
		_, _ = io.Copy(nc, ch)
		nc.Close()
	}()
	_, _ = io.Copy(ch, nc)
	ch.Close()
}

// session serves one session: its first exec request runs, others are
// refused.
func (s *Server) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" || len(req.Payload) < 4 {
			_ = req.Reply(false, nil)
			continue
		}
		n := binary.BigEndian.Uint32(req.Payload)
		command := string(req.Payload[4:][:min(int(n), len(req.Payload)-4)])
		_ = req.Reply(true, nil)
		status := s.exec(ch, command)
		_, _ = ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, uint32(status)))
		return
	}
}

// exec runs command and returns its exit status.
func (s *Server) exec(ch ssh.Channel, command string) int {
	if rest, ok := strings.CutPrefix(command, "scp "); ok {
		if err := s.scpSink(ch, rest); err != nil {
			fmt.Fprintln(ch.Stderr(), err)
			return 1
		}
		return 0
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = s.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	fmt.Fprintln(ch.Stderr(), err)
	return 127
}

// scpSink receives files as "scp -t [-r] [-v] TARGET" does. args is what
// follows "scp "; TARGET may be single-quoted.
func (s *Server) scpSink(ch ssh.Channel, args string) error {
	var target string
	for args != "" {
		var f string
		if strings.HasPrefix(args, "'") {
			target = strings.ReplaceAll(strings.Trim(args, "'"), `'\''`, "'")
			break
		}
		f, args, _ = strings.Cut(args, " ")
		if !strings.HasPrefix(f, "-") {
			target = f
		}
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(s.Dir, target)
	}
	r := bufio.NewReader(ch)
	ack := func() { _, _ = ch.Write([]byte{0}) }
	fail := func(msg string) error {
		_, _ = ch.Write([]byte("\x01scp: " + msg + "\n"))
		return errors.New(msg)
	}
	// where returns the path an entry called name goes to: into the
	// current directory, or at the target itself when it is not one.
	stack := []string{target}
	where := func(name string) string {
		cur := stack[len(stack)-1]
		if fi, err := os.Stat(cur); len(stack) == 1 && (err != nil || !fi.IsDir()) {
			return cur
		}
		return filepath.Join(cur, name)
	}
	ack()
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			return fail("empty message")
		}
		switch line[0] {
		case 'C', 'D':
			parts := strings.SplitN(line[1:], " ", 3)
			if len(parts) != 3 {
				return fail("bad message " + strconv.Quote(line))
			}
			mode, err1 := strconv.ParseUint(parts[0], 8, 32)
			size, err2 := strconv.ParseInt(parts[1], 10, 64)
			if err1 != nil || err2 != nil {
				return fail("bad message " + strconv.Quote(line))
			}
			p := where(parts[2])
			if line[0] == 'D' {
				if err := os.MkdirAll(p, os.FileMode(mode)); err != nil {
					return fail(err.Error())
				}
				stack = append(stack, p)
				ack()
				continue
			}
			ack()
			data := make([]byte, size+1)
			if _, err := io.ReadFull(r, data); err != nil {
				return err
			}
			if err := os.WriteFile(p, data[:size], os.FileMode(mode)); err != nil {
				return fail(err.Error())
			}
			ack()
		case 'E':
			if len(stack) == 1 {
				return fail("unexpected E")
			}
			stack = stack[:len(stack)-1]
			ack()
		case 'T':
			ack()
		default:
			return fail("unknown message " + strconv.Quote(line))
		}
	}
}
