package getmodules

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// gitRunner runs the git executable without a terminal: GIT_TERMINAL_PROMPT=0
// stops git asking for credentials, and ssh runs in batch mode unless the
// user chose an ssh command (GIT_SSH_COMMAND or GIT_SSH).
type gitRunner struct {
	path string // absolute path of git
}

// findGit looks up the git executable: name when it holds a path
// separator, else name (default "git") on PATH.
func findGit(name string) (gitRunner, error) {
	if name == "" {
		name = "git"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return gitRunner{}, err
	}
	return gitRunner{path: p}, nil
}

// run runs git with args in dir; a failure's error holds git's standard
// error output. ctx cancels it.
func (g gitRunner) run(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if os.Getenv("GIT_SSH_COMMAND") == "" && os.Getenv("GIT_SSH") == "" {
		cmd.Env = append(cmd.Env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := strings.TrimSpace(stderr.String())
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) && msg != "" {
		return fmt.Errorf("%s exited with %d: %s", g.path, exitErr.ExitCode(), msg)
	}
	return fmt.Errorf("%s %s: %w", g.path, args[0], err)
}

// clone clones src's repository into dir (which must not exist) and checks
// out src.Ref: a shallow clone (src.Depth) fetches the ref as a branch or
// tag; a full clone checks it out afterwards, so it may also be a commit.
// Submodules are initialized when the repository has any.
func (g gitRunner) clone(ctx context.Context, src Source, dir string) error {
	args := []string{"clone"}
	if src.Depth > 0 {
		args = append(args, "--depth", strconv.Itoa(src.Depth))
		if src.Ref != "" {
			args = append(args, "--branch", src.Ref)
		}
	}
	args = append(args, "--", src.Repo, dir)
	if err := g.run(ctx, filepath.Dir(dir), args...); err != nil {
		return err
	}
	if src.Ref != "" && src.Depth == 0 {
		if err := g.run(ctx, dir, "-c", "advice.detachedHead=false", "checkout", src.Ref, "--"); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".gitmodules")); err == nil {
		if err := g.run(ctx, dir, "submodule", "update", "--init", "--recursive"); err != nil {
			return err
		}
	}
	return nil
}
