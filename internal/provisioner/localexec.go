package provisioner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// maxOutput is how much of a command's output the error of a failed
// command quotes: its last 8 KiB.
const maxOutput = 8 * 1024

// Runner runs local-exec provisioners. The zero value is ready to use.
type Runner struct{}

// Run runs the command req.Config describes (a value of Spec(LocalExec),
// without marks; the connection is not used): through its interpreter (default "/bin/sh -c", "cmd /C"
// on Windows), in working_dir, with environment added to rig's own. It
// calls output with the "Executing: …" line, then with each line the
// command writes to stdout or stderr, as it comes; output is called from
// one goroutine at a time. The command runs in a process group of its own;
// cancelling ctx kills the whole group. The error of a command that fails
// or cannot start says how, with the end of its output, as OpenTofu says
// it (a *CommandError).
func (Runner) Run(ctx context.Context, req Request, output func(string)) error {
	config := req.Config
	command := stringAttr(config, "command")
	if command == "" {
		return errors.New("the command must be a non-empty string")
	}
	var args []string
	if v := config.GetAttr("interpreter"); !v.IsNull() && v.LengthInt() > 0 {
		for _, a := range v.AsValueSlice() {
			if !a.IsNull() {
				args = append(args, a.AsString())
			}
		}
	}
	if len(args) == 0 {
		args = []string{"/bin/sh", "-c"}
		if runtime.GOOS == "windows" {
			args = []string{"cmd", "/C"}
		}
	}
	args = append(args, command)
	env := os.Environ()
	if v := config.GetAttr("environment"); !v.IsNull() {
		for it := v.ElementIterator(); it.Next(); {
			k, val := it.Element()
			if !val.IsNull() {
				env = append(env, k.AsString()+"="+val.AsString())
			}
		}
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("failed to initialize pipe for output: %w", err)
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.Dir = stringAttr(config, "working_dir")
	cmd.Env = env
	ownProcessGroup(cmd)

	tail := &tailBuffer{max: maxOutput}
	copied := make(chan struct{})
	var outMu sync.Mutex
	emit := func(line string) {
		outMu.Lock()
		defer outMu.Unlock()
		output(line)
	}
	go func() {
		defer close(copied)
		s := bufio.NewScanner(io.TeeReader(pr, tail))
		s.Buffer(make([]byte, 64*1024), 1024*1024)
		for s.Scan() {
			emit(s.Text())
		}
		// A line longer than the scanner's buffer ends the mirroring; the
		// rest is still drained into the tail.
		_, _ = io.Copy(io.Discard, io.TeeReader(pr, tail))
	}()

	if q := config.GetAttr("quiet"); !q.IsNull() && q.True() {
		emit("local-exec: Executing: Suppressed by quiet=true")
	} else {
		emit(fmt.Sprintf("Executing: %q", args))
	}
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	pw.Close()
	// A process that outlives the command (started in the background) may
	// hold the pipe open: stop waiting for its output once ctx is done.
	select {
	case <-copied:
	case <-ctx.Done():
	}
	if err != nil {
		return &CommandError{Command: command, Err: err, Output: tail.String()}
	}
	return nil
}

// CommandError is a command that failed or could not start.
type CommandError struct {
	Command string
	// Err is why: the exit status, the signal that killed it, or why it did
	// not start.
	Err error
	// Output is the end of what the command wrote.
	Output string
}

// Error says it as OpenTofu does: "Error running command 'false': exit
// status 1. Output: ".
func (e *CommandError) Error() string {
	return fmt.Sprintf("Error running command '%s': %v. Output: %s", e.Command, e.Err, e.Output)
}

// Unwrap returns Err.
func (e *CommandError) Unwrap() error { return e.Err }

func stringAttr(v cty.Value, name string) string {
	a := v.GetAttr(name)
	if a.IsNull() {
		return ""
	}
	return a.AsString()
}

// tailBuffer keeps the last max bytes written to it. It is safe for
// concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Clone(string(b.buf))
}
