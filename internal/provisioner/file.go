//lint:file-ignore ST1005 its errors are messages users see, worded as OpenTofu words them.

package provisioner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FileRunner runs file provisioners over SSH. The zero value is ready to
// use.
type FileRunner struct{}

// Run copies what req.Config describes to its destination on the host
// req.Connection names, over SCP as OpenTofu does: content as a file;
// source as a file, or as a directory (see uploadDir for the meaning of a
// trailing slash); a source starting with "~/" is in the home directory.
// It writes no output. Cancelling ctx closes the connection.
func (FileRunner) Run(ctx context.Context, req Request, _ func(string)) error {
	src, content, dst := req.Config.GetAttr("source"), req.Config.GetAttr("content"), stringAttr(req.Config, "destination")
	if err := CheckArguments(File, hasFunc(req.Config)); err != nil {
		return err
	}
	ci, err := parseConnection(req.Connection)
	if err != nil {
		return err
	}
	c, err := connect(ctx, ci, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var uerr error
	if !content.IsNull() {
		if err := uploadFile(c.Client, dst, strings.NewReader(content.AsString()), int64(len(content.AsString()))); err != nil {
			uerr = fmt.Errorf("Upload failed: %w", err)
		}
	} else {
		uerr = uploadSource(c, expandHome(src.AsString()), dst)
	}
	if err := uerr; err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return err
	}
	return nil
}

// uploadSource copies the file or directory src to dst.
func uploadSource(c *client, src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if err := uploadDir(c.Client, dst, src); err != nil {
			return fmt.Errorf("Upload failed: %w", err)
		}
		return nil
	}
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := uploadFile(c.Client, dst, f, fi.Size()); err != nil {
		return fmt.Errorf("Upload failed: %w", err)
	}
	return nil
}

// expandHome replaces a leading "~" of p by the home directory.
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}
