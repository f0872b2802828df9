package workdir

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestBackendConfigFlags: -backend-config values and files merge over the
// block in order, later ones winning, with the backend's setting types.
func TestBackendConfigFlags(t *testing.T) {
	dir := t.TempDir()
	commandtest.WriteFile(t, dir, "pg.hcl", "conn_str = \"from-file\"\nskip_table_creation = true\n")
	commandtest.WriteFile(t, dir, "bad.hcl", "bogus = 1\n")
	block := backendSpec{Type: "pg", Settings: map[string]string{"schema_name": "block", "conn_str": "block"}, Hash: 7}
	tests := []struct {
		name    string
		flags   []string
		want    map[string]string
		wantErr string
	}{
		{"key=value", []string{"conn_str=postgres://x?a=b"},
			map[string]string{"schema_name": "block", "conn_str": "postgres://x?a=b"}, ""},
		{"file then pair", []string{filepath.Join(dir, "pg.hcl"), "conn_str=last"},
			map[string]string{"schema_name": "block", "conn_str": "last", "skip_table_creation": "true"}, ""},
		{"pair then file", []string{"conn_str=first", filepath.Join(dir, "pg.hcl")},
			map[string]string{"schema_name": "block", "conn_str": "from-file", "skip_table_creation": "true"}, ""},
		{"boolean", []string{"skip_index_creation=1"},
			map[string]string{"schema_name": "block", "conn_str": "block", "skip_index_creation": "true"}, ""},
		{"bad boolean", []string{"skip_index_creation=perhaps"}, nil, "must be a boolean"},
		{"unknown key", []string{"bucket=x"}, nil, `"bucket" given on the command line is not expected`},
		{"unknown key in a file", []string{filepath.Join(dir, "bad.hcl")}, nil, `"bogus"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ds := applyBackendConfigFlags(block, tt.flags)
			if tt.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr) {
					t.Fatalf("diagnostics = %v, want an error containing %q", ds, tt.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if diff := cmp.Diff(tt.want, got.Settings); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
			if got.Hash != block.Hash {
				t.Errorf("hash changed to %d: it identifies the block as written", got.Hash)
			}
		})
	}
	if block.Settings["conn_str"] != "block" {
		t.Error("the block's settings were modified")
	}
}
