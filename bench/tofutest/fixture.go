package tofutest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Tool is a test command to run: rig, tofu or terraform.
type Tool struct {
	// Name names the tool in reports.
	Name string
	// Path is its executable.
	Path string
	// Env is added to the environment it runs in.
	Env []string
}

// Result is what one tool gave on one fixture.
type Result struct {
	Outcomes Outcomes
	// ExitCode is the test command's exit status (-1 when it was killed).
	ExitCode int
	// Elapsed is how long the test command took (not init).
	Elapsed time.Duration
	// Output is the test command's standard output and error.
	Output []byte
	// JUnit is the JUnit XML report, with Options.JUnit.
	JUnit []byte
	// Dir is the directory the fixture ran in, with Options.Keep (the
	// caller removes it); "" otherwise.
	Dir string
}

// Options are how fixtures are run.
type Options struct {
	// ProviderDir is the directory of the terraform-provider-test
	// executable serving OpenTofu's fixture schema, installed for
	// hashicorp/test as a development override; "" for none.
	ProviderDir string
	// Timeout bounds each command (default two minutes).
	Timeout time.Duration
	// Mirror is a filesystem mirror (unpacked layout) to install the
	// registry.terraform.io providers fixtures require from; "" for none.
	Mirror string
	// Init runs "init" before "test" (the fixtures' local modules and
	// providers).
	Init bool
	// JUnit asks for the JUnit XML report too (-junit-xml), returned in
	// Result.JUnit.
	JUnit bool
	// Keep leaves the fixture's copy in place, for looking at what the
	// test left behind; RunFixture then returns its directory in Dir.
	Keep bool
}

// RunFixture copies the fixture directory into a new temporary directory
// and runs tool there: init (when opts.Init says so), then test -json
// with args. The copy is removed afterwards.
func RunFixture(ctx context.Context, tool Tool, fixture string, args []string, opts Options) (*Result, error) {
	work, err := os.MkdirTemp("", "testcompare-")
	if err != nil {
		return nil, err
	}
	if !opts.Keep {
		defer os.RemoveAll(work)
	}
	dir := filepath.Join(work, filepath.Base(fixture))
	if err := copyDir(fixture, dir); err != nil {
		return nil, fmt.Errorf("copying %s: %w", fixture, err)
	}
	env := append(os.Environ(), tool.Env...)
	env = append(env, "RIG_FIXTURE_STORE="+filepath.Join(work, "store"), "CHECKPOINT_DISABLE=1")
	if opts.ProviderDir != "" || opts.Mirror != "" {
		cfg := "provider_installation {\n"
		if opts.ProviderDir != "" {
			cfg += fmt.Sprintf("  dev_overrides {\n    \"hashicorp/test\" = %q\n  }\n", opts.ProviderDir)
		}
		if opts.Mirror != "" {
			cfg += fmt.Sprintf("  filesystem_mirror {\n    path = %q\n  }\n", opts.Mirror)
		} else {
			cfg += "  direct {}\n"
		}
		rc := filepath.Join(work, "cli.tfrc")
		if err := os.WriteFile(rc, []byte(cfg+"}\n"), 0o644); err != nil {
			return nil, err
		}
		env = append(env, "TF_CLI_CONFIG_FILE="+rc)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	if opts.Init {
		ictx, cancel := context.WithTimeout(ctx, timeout)
		cmd := exec.CommandContext(ictx, tool.Path, "init", "-no-color")
		cmd.Dir, cmd.Env = dir, env
		_ = cmd.Run()
		cancel()
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	testArgs := []string{"test", "-json", "-no-color"}
	junit := filepath.Join(work, "junit.xml")
	if opts.JUnit {
		testArgs = append(testArgs, "-junit-xml="+junit)
	}
	cmd := exec.CommandContext(tctx, tool.Path, append(testArgs, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	res := &Result{Elapsed: time.Since(start), Output: out.Bytes()}
	if opts.Keep {
		res.Dir = dir
	}
	if opts.JUnit {
		res.JUnit, _ = os.ReadFile(junit)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	default:
		return nil, fmt.Errorf("running %s test: %w", tool.Name, err)
	}
	res.Outcomes, err = ParseOutcomes(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s test: %w", tool.Name, err)
	}
	return res, nil
}

// copyDir copies the regular files and directories under src into dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
