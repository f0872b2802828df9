package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
)

// fakeMirror makes an unpacked filesystem mirror holding a provider
// package for each "TYPE VERSION" given; init installs and hashes the
// packages without starting them.
func fakeMirror(t *testing.T, packages ...string) string {
	t.Helper()
	mirror := t.TempDir()
	for _, p := range packages {
		typ, v, _ := strings.Cut(p, " ")
		dir := filepath.Join(mirror, "registry.terraform.io", "hashicorp", typ, v, getproviders.CurrentPlatform.String())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+typ+"_v"+v), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return mirror
}

const nullConfig = `
terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
`

const nullAndLocalConfig = `
terraform {
  required_providers {
    null  = { source = "hashicorp/null" }
    local = { source = "hashicorp/local" }
  }
}
`

// TestInitLockfileReadonly checks -lockfile=readonly: init uses the lock
// file's selections and never writes it; a provider the lock file does
// not record is an error in Terraform's words.
func TestInitLockfileReadonly(t *testing.T) {
	mirror := fakeMirror(t, "null 3.2.4", "local 2.5.2")
	dir := workDir(t, map[string]string{"main.tf": nullConfig})
	lockPath := filepath.Join(dir, getproviders.LockFileName)
	wantChange := "Error: Provider dependency changes detected\n\nChanges to the required provider dependencies were detected, but the lock file is read-only."

	// No lock file yet: recording null would change it.
	r := rig(t, dir, "init", "-no-color", "-plugin-dir="+mirror, "-lockfile=readonly")
	if r.code != 1 || !containsText(r.stderr, wantChange) || !containsText(r.stderr, `run "rig init" without the "-lockfile=readonly" flag`) {
		t.Fatalf("init -lockfile=readonly without a lock file: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(lockPath); !os.IsNotExist(err) {
		t.Fatalf("init -lockfile=readonly wrote the lock file: %v", err)
	}

	if r := rig(t, dir, "init", "-no-color", "-plugin-dir="+mirror); r.code != 0 {
		t.Fatalf("init: exit %d\n%s", r.code, r.stderr)
	}
	locked, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	// The lock file as it stands: nothing to change, nothing written.
	if r := rig(t, dir, "init", "-no-color", "-lockfile=readonly"); r.code != 0 || r.stderr != "" || strings.Contains(r.stdout, "rig has made some changes") {
		t.Errorf("init -lockfile=readonly with the lock file up to date: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A provider added to the configuration.
	writeFile(t, dir, "main.tf", nullAndLocalConfig)
	if r := rig(t, dir, "init", "-no-color", "-lockfile=readonly"); r.code != 1 || !containsText(r.stderr, wantChange) {
		t.Errorf("init -lockfile=readonly with a new provider: exit %d\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(lockPath); string(got) != string(locked) {
		t.Errorf("init -lockfile=readonly changed the lock file:\n%s", got)
	}

	// As OpenTofu: found at the provider step, a line of its own.
	if r := rig(t, dir, "init", "-no-color", "-lockfile=readonly", "-upgrade"); r.code != 1 || r.stderr != "The -upgrade flag conflicts with -lockfile=readonly.\n" ||
		!strings.HasPrefix(r.stdout, "\nInitializing the backend...\n") || strings.Contains(r.stdout, "Initializing provider plugins") {
		t.Errorf("init -lockfile=readonly -upgrade: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "init", "-no-color", "-lockfile=always"); r.code != 1 || !containsText(r.stderr, `invalid value "always" for flag -lockfile`) {
		t.Errorf("init -lockfile=always: exit %d\n%s", r.code, r.stderr)
	}
}

// TestInitBackendAndGetFlags checks that -backend=false skips the backend
// step and that -get=false is accepted.
func TestInitBackendAndGetFlags(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	r := rig(t, dir, "init", "-no-color", "-backend=false", "-get=false")
	if r.code != 0 || strings.Contains(r.stdout, "Initializing the backend") || !strings.Contains(r.stdout, "rig has been successfully initialized!") {
		t.Errorf("init -backend=false -get=false: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "init", "-no-color", "-get=false"); r.code != 0 || !strings.Contains(r.stdout, "Initializing the backend") {
		t.Errorf("init -get=false: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
