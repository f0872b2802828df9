package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStateSerialsAcrossApplies: the serial of the state file and whether
// a backup is kept, after each step of a directory's life, are what
// OpenTofu 1.12 writes for the same steps: the first apply writes serial 1,
// a run that changes nothing writes nothing (no backup either), and each
// run that changes the state adds one.
func TestStateSerialsAcrossApplies(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "v" {
  default = "a"
}

resource "terraform_data" "a" {
  input = var.v
}

output "o" {
  value = terraform_data.a.output
}
`})
	backup := filepath.Join(dir, "terraform.tfstate.backup")
	steps := []struct {
		name       string
		args       []string
		wantSerial uint64
		wantBackup bool
	}{
		{"first apply", []string{"apply", "-auto-approve"}, 1, false},
		{"apply with nothing to change", []string{"apply", "-auto-approve"}, 1, false},
		{"refresh with nothing changed", []string{"refresh"}, 1, false},
		{"apply of a change", []string{"apply", "-auto-approve", "-var", "v=b"}, 2, true},
		{"destroy", []string{"destroy", "-auto-approve", "-var", "v=b"}, 3, true},
		{"destroy with nothing left", []string{"destroy", "-auto-approve"}, 3, false},
		{"apply again", []string{"apply", "-auto-approve"}, 4, true},
	}
	for _, st := range steps {
		// A backup is the state before this run: a run that writes
		// nothing leaves none.
		if err := os.Remove(backup); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		r := rig(t, dir, append(st.args, "-no-color", "-input=false")...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", st.name, r.code, r.stdout, r.stderr)
		}
		sf, _ := readStateFile(t, dir)
		if sf.Serial != st.wantSerial {
			t.Errorf("%s: serial %d, want %d", st.name, sf.Serial, st.wantSerial)
		}
		_, err := os.Stat(backup)
		if gotBackup := err == nil; gotBackup != st.wantBackup {
			t.Errorf("%s: backup kept %v, want %v", st.name, gotBackup, st.wantBackup)
		}
	}
}
