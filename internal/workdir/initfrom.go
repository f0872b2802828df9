package workdir

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// initFromModuleDir is where `init -from-module` fetches the module before
// copying it into the working directory.
var initFromModuleDir = filepath.Join(".terraform", "init-from-module")

// InitFromModule is `init -from-module=SOURCE`: it copies the module at
// SOURCE (any module source: a local path, relative to the working
// directory, a registry address, git, HTTP) into the working directory,
// which must be empty but for .terraform, as OpenTofu and Terraform do,
// saying so on out. The module's own module calls are installed by init's
// module step.
func (d *Dir) InitFromModule(ctx context.Context, source string, out io.Writer) diag.Diagnostics {
	entries, err := os.ReadDir(d.root)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read target directory", "Error reading the working directory to ensure it is empty: %s.", err)}
	}
	for _, e := range entries {
		if e.Name() != ".terraform" {
			return diag.Diagnostics{diag.Errorf("Can't populate non-empty directory",
				"The target directory . is not empty, so it cannot be initialized with the -from-module=... option.")}
		}
	}
	fmt.Fprintf(out, "Copying configuration from %q...\n", source)
	dir, cleanup, ds := d.fetchModule(ctx, source)
	defer cleanup()
	if ds.HasErrors() {
		return ds
	}
	if err := copyModuleDir(dir, d.root); err != nil {
		return ds.Append(diag.Errorf("Failed to copy root module", "Error copying root module %q from %s: %s.", source, dir, err))
	}
	// A call of a module beside the copied one (../x) has nothing beside it
	// here: its source must name where it came from.
	if mod, _ := config.LoadDir(d.root); mod != nil {
		for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
			if call := mod.ModuleCalls[name]; strings.HasPrefix(call.Source, "../") || call.Source == ".." {
				ds = ds.Append(diag.Errorf("Root module references parent directory",
					"The requested module %q refers to a module via its parent directory (%q). To use this as a new root module this source string must be rewritten as a remote source address.", source, call.Source))
			}
		}
	}
	fmt.Fprintln(out)
	return ds
}

// fetchModule makes the module at source available in a directory: a
// local path is used where it is; any other source is installed, as a
// module call naming it would be, under initFromModuleDir, which cleanup
// removes.
func (d *Dir) fetchModule(ctx context.Context, source string) (dir string, cleanup func(), ds diag.Diagnostics) {
	cleanup = func() {}
	if config.IsLocalSource(filepath.ToSlash(source)) || filepath.IsAbs(source) {
		fi, err := os.Stat(d.path(source))
		if err != nil || !fi.IsDir() {
			return "", cleanup, diag.Diagnostics{diag.Errorf("Invalid module source address", "The module directory %s does not exist or cannot be read.", source)}
		}
		return d.path(source), cleanup, nil
	}
	abs, err := filepath.Abs(d.path(initFromModuleDir))
	if err == nil {
		_ = os.RemoveAll(abs)
		err = os.MkdirAll(abs, 0o755)
	}
	if err != nil {
		return "", cleanup, diag.Diagnostics{diag.Errorf("Failed to create temporary directory", "Failed to create temporary directory %s: %s.", initFromModuleDir, err)}
	}
	cleanup = func() { _ = os.RemoveAll(abs) }
	// A root module that calls source, installed like any module call.
	call := fmt.Sprintf("module \"root\" {\n  source = %q\n}\n", source)
	if err := os.WriteFile(filepath.Join(abs, "main.tf"), []byte(call), 0o644); err != nil {
		return "", cleanup, diag.Diagnostics{diag.Errorf("Failed to create temporary directory", "%s", err)}
	}
	root, ds := config.LoadDir(abs)
	if ds.HasErrors() {
		return "", cleanup, diag.Diagnostics{diag.Errorf("Invalid module source address", "Failed to parse module source address %q.", source)}
	}
	inst, more := d.ModuleInstaller(false, nil)
	ds = ds.Append(more)
	inst.ModulesDir, inst.WorkDir = "", abs
	manifest, more := inst.Install(ctx, root)
	if ds = ds.Append(more); ds.HasErrors() {
		return "", cleanup, ds
	}
	rec, ok := manifest.Record("root")
	if !ok {
		return "", cleanup, ds.Append(diag.Errorf("Failed to install module", "The module %q was not installed.", source))
	}
	dir = filepath.FromSlash(rec.Dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(abs, dir)
	}
	return dir, cleanup, ds
}

// copyModuleDir copies the files of the module directory src into dst:
// regular files with their modes, directories and symbolic links, leaving
// out a .terraform or .git directory at its top.
func copyModuleDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		if d.IsDir() && (rel == ".terraform" || rel == ".git") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
