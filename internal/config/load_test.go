package config

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/txtartest"
)

// update is the -update flag, declared by package golden: it rewrites
// the want sections of testdata/*.txtar.
var update = golden.Update

// formatDiags renders diagnostics as the want sections read them.
var formatDiags = txtartest.Diagnostics

// TestLoadScenarios loads each testdata/load/*.txtar (every file but "want"
// is a configuration file) and compares the diagnostics with "want".
func TestLoadScenarios(t *testing.T) {
	txtartest.Run(t, "testdata/load/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		files := map[string][]byte{}
		for _, f := range ar.Files {
			if f.Name != "want" {
				files[f.Name] = f.Data
			}
		}
		m, diags := LoadFiles(files)
		if m == nil || m.Terraform == nil || m.ManagedResources == nil {
			t.Fatal("LoadFiles returned an incomplete module")
		}
		txtartest.Check(t, path, ar, "want", formatDiags(diags), *update)
	})
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", `resource "terraform_data" "a" {}`)
	write("extra.tf.json", `{"resource": {"terraform_data": {"b": {}}}}`)
	write(".hidden.tf", `this is not valid`)
	write("main.tf~", `this is not valid`)
	write("#main.tf#", `this is not valid`)
	write("notes.txt", `this is not valid`)
	if err := os.Mkdir(filepath.Join(dir, "sub.tf"), 0o755); err != nil {
		t.Fatal(err)
	}

	m, diags := LoadDir(dir)
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%s", formatDiags(diags))
	}
	if m.SourceDir != dir {
		t.Errorf("SourceDir = %q, want %q", m.SourceDir, dir)
	}
	if got := len(m.ManagedResources); got != 2 {
		t.Errorf("got %d resources, want 2", got)
	}
	if _, ok := m.Sources[filepath.Join(dir, "main.tf")]; !ok {
		t.Errorf("Sources lacks main.tf: %v", m.Sources)
	}

	_, diags = LoadDir(filepath.Join(dir, "missing"))
	if got := formatDiags(diags); got != "error Failed to read module directory\n" {
		t.Errorf("missing dir diagnostics = %q", got)
	}
}

func TestLoadFilesRelativeNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"terraform_data\" \"a\" {\n  lifecycle {\n    create_before_destroy = var.x\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, diags := LoadDir(".")
	if got, want := formatDiags(diags), "error main.tf:3: Variables not allowed\n"; got != want {
		t.Errorf("diagnostics = %q, want %q", got, want)
	}
}
