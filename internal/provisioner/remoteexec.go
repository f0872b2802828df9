//lint:file-ignore ST1005 its errors are messages users see, worded as OpenTofu words them.

package provisioner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/ssh"
)

// RemoteExecRunner runs remote-exec provisioners over SSH. The zero value
// is ready to use.
type RemoteExecRunner struct{}

// Run runs the scripts req.Config describes on the host req.Connection
// names, as OpenTofu does: inline commands are joined into one script; each
// script is uploaded (with a "#!/bin/sh" line unless it has its own) to the
// connection's script_path ("%RAND%" replaced by a random number), made
// executable and run, then overwritten with an empty file. output receives
// the connection's description, then each line the scripts write to stdout
// or stderr, from one goroutine at a time. A script that fails ends the run
// with its exit status. Cancelling ctx closes the connection.
func (RemoteExecRunner) Run(ctx context.Context, req Request, output func(string)) error {
	scripts, err := remoteScripts(req.Config)
	if err != nil {
		return err
	}
	ci, err := parseConnection(req.Connection)
	if err != nil {
		return err
	}
	c, err := connect(ctx, ci, output)
	if err != nil {
		return err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var mu sync.Mutex
	emit := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		output(line)
	}
	for _, script := range scripts {
		p := strings.ReplaceAll(ci.scriptPath, "%RAND%", strconv.FormatInt(int64(rand.Int32()), 10))
		if err := uploadScript(c.Client, p, script); err != nil {
			return fmt.Errorf("Failed to upload script: %w", err)
		}
		if err := runRemote(c.Client, p, emit); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w (%v)", ctx.Err(), err)
			}
			return err
		}
		// Best effort, as in OpenTofu: leave no script behind.
		_ = uploadFile(c.Client, p, strings.NewReader(""), 0)
	}
	return nil
}

// remoteScripts returns the scripts of config: its inline commands joined
// into one, or the contents of the file script names, or of each file
// scripts names.
func remoteScripts(config cty.Value) ([][]byte, error) {
	inline, script, scripts := config.GetAttr("inline"), config.GetAttr("script"), config.GetAttr("scripts")
	if err := CheckArguments(RemoteExec, hasFunc(config)); err != nil {
		return nil, err
	}
	if !inline.IsNull() {
		var lines []string
		for _, l := range inline.AsValueSlice() {
			if !l.IsNull() {
				lines = append(lines, l.AsString())
			}
		}
		return [][]byte{[]byte(strings.Join(append(lines, ""), "\n"))}, nil
	}
	var paths []string
	if !script.IsNull() {
		paths = append(paths, script.AsString())
	} else {
		for _, p := range scripts.AsValueSlice() {
			if !p.IsNull() {
				paths = append(paths, p.AsString())
			}
		}
	}
	out := make([][]byte, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("Failed to open script '%s': %w", p, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// uploadScript uploads script to p, with a "#!/bin/sh" line first unless it
// starts with "#!", and makes it executable.
func uploadScript(c *ssh.Client, p string, script []byte) error {
	if !bytes.HasPrefix(script, []byte("#!")) {
		script = append([]byte("#!/bin/sh\n"), script...)
	}
	if err := uploadFile(c, p, bytes.NewReader(script), int64(len(script))); err != nil {
		return err
	}
	s, err := c.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	s.Stdout, s.Stderr = &stdout, &stderr
	if err := s.Run("chmod 0777 " + shellQuote(p)); err != nil {
		return fmt.Errorf("Error chmodding script file to 0777 in remote machine %v: %s %s", err, stdout.String(), stderr.String())
	}
	return nil
}

// runRemote runs command on c, calling emit with each line it writes to
// stdout or stderr. Its failure says it as OpenTofu does: `"/tmp/x.sh"
// exit status: 2`.
func runRemote(c *ssh.Client, command string, emit func(string)) error {
	s, err := c.NewSession()
	if err != nil {
		return fmt.Errorf("Error starting script: %w", err)
	}
	defer s.Close()
	stdout, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := s.StderrPipe()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 64*1024), 1024*1024)
			for sc.Scan() {
				emit(sc.Text())
			}
			_, _ = io.Copy(io.Discard, r)
		}()
	}
	if err := s.Start(command); err != nil {
		return fmt.Errorf("Error starting script: %w", err)
	}
	err = s.Wait()
	wg.Wait()
	var exit *ssh.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit):
		return &RemoteError{Command: command, ExitStatus: exit.ExitStatus()}
	default:
		return &RemoteError{Command: command, Err: err}
	}
}

// RemoteError is a remote command that failed.
type RemoteError struct {
	Command    string
	ExitStatus int
	// Err is why the command did not end with an exit status, nil when it
	// did.
	Err error
}

// Error says it as OpenTofu does.
func (e *RemoteError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("error executing %q: %v", e.Command, e.Err)
	}
	return fmt.Sprintf("%q exit status: %d", e.Command, e.ExitStatus)
}

// Unwrap returns Err.
func (e *RemoteError) Unwrap() error { return e.Err }
