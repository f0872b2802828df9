package workdir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/config"
)

// TestBackendHashForms computes the hashes Terraform 1.11.4 and OpenTofu
// 1.10.6 record for the pg blocks of the OpenTofu fixtures, and accepts
// each tool's record for its block.
func TestBackendHashForms(t *testing.T) {
	tests := []struct {
		fixture         string
		settings        map[string]string
		tofu, terraform uint64 // as each tool recorded them
	}{
		{"workdir-pg-default", map[string]string{}, 2941081880, 1949691007},
		{"workdir-pg-configured", map[string]string{"schema_name": "team_state"}, 2354538994, 2468385756},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			for form, want := range map[backendHashForm]uint64{hashOpenTofu: tt.tofu, hashTerraform: tt.terraform} {
				if got, ok := blockHash(form, "pg", tt.settings); !ok || got != want {
					t.Errorf("form %d: hash %d (%v), want %d", form, got, ok, want)
				}
			}
			dir := tofuFixture(t, tt.fixture)
			mod, ds := config.LoadDir(dir)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			want, ds := blockSpec(mod.Terraform.Backend)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			rec := readFixtureRecord(t, tt.fixture)
			if rec.Hash != tt.tofu {
				t.Fatalf("fixture records hash %d, want %d", rec.Hash, tt.tofu)
			}
			if form, ok := rec.recordedFor(want); !ok || form != hashOpenTofu {
				t.Errorf("OpenTofu's record: recordedFor = %d, %v; want OpenTofu's form", form, ok)
			}
			if want.Form != hashTerraform || want.Hash != tt.terraform {
				t.Errorf("a fresh directory records form %d hash %d, want Terraform's %d", want.Form, want.Hash, tt.terraform)
			}
			other := want
			other.block = map[string]string{"schema_name": "elsewhere"}
			if _, ok := rec.recordedFor(other); ok {
				t.Errorf("OpenTofu's record accepted for another block")
			}
		})
	}
	// OpenTofu's settings Terraform lacks make OpenTofu's form the preferred one.
	if f := preferredForm("pg", map[string]string{"table_name": "t"}, nil); f != hashOpenTofu {
		t.Errorf("preferredForm with table_name = %d, want OpenTofu's", f)
	}
}

// readFixtureRecord reads a fixture's .terraform/terraform.tfstate as rig
// reads a backend record.
func readFixtureRecord(t *testing.T, fixture string) backendSpec {
	t.Helper()
	data, err := os.ReadFile(tofuFixture(t, fixture, ".terraform", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/.terraform", 0o755); err != nil {
		t.Fatal(err)
	}
	commandtest.WriteFile(t, dir, ".terraform/terraform.tfstate", string(data))
	var spec backendSpec
	var ok bool
	spec, ok, err = New(dir, Options{}).readBackendRecord()
	if err != nil || !ok {
		t.Fatalf("reading the record: %v (found %v)", err, ok)
	}
	return spec
}

// openTofuFixtures holds the working directories OpenTofu 1.10 left, in
// the repository's shared fixtures beside it.
var openTofuFixtures = filepath.Join("..", "..", "..", "shared", "fixtures", "opentofu-1.10")

// tofuFixture is the path of a file or directory of the OpenTofu
// fixtures; the test is skipped without them.
func tofuFixture(t *testing.T, parts ...string) string {
	t.Helper()
	path := filepath.Join(append([]string{openTofuFixtures}, parts...)...)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no OpenTofu fixture %s: %v", path, err)
	}
	return path
}
