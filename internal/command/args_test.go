package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAfterArguments checks that flags may follow positional
// arguments, with the same result as before them, and that a flag's value
// given as the next argument is never taken for a positional argument.
func TestFlagsAfterArguments(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig + `
output "b" {
  value = terraform_data.b.output
}
`})
	// -out's value looks like a path and comes before another flag.
	if r := rig(t, dir, "plan", "-out", "next.plan", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("plan -out next.plan: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "next.plan")); err != nil {
		t.Fatalf("plan file not written: %v", err)
	}
	r := rig(t, dir, "apply", "next.plan", "-no-color", "-input=false")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 2 added") || strings.Contains(r.stdout+r.stderr, "\x1b[") {
		t.Fatalf("apply next.plan -no-color: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	same := []struct {
		name          string
		before, after []string
	}{
		{"output -json", []string{"output", "-json", "b"}, []string{"output", "b", "-json"}},
		{"output -raw", []string{"output", "-raw", "b"}, []string{"output", "b", "-raw"}},
		{"state show -no-color", []string{"state", "show", "-no-color", "terraform_data.a"}, []string{"state", "show", "terraform_data.a", "-no-color"}},
		{"state list", []string{"state", "list", "-no-color", "terraform_data.a"}, []string{"state", "list", "terraform_data.a", "-no-color"}},
		{"show plan -json", []string{"show", "-json", "next.plan"}, []string{"show", "next.plan", "-json"}},
		{"flags both sides", []string{"output", "-no-color", "-json", "b"}, []string{"output", "-no-color", "b", "-json"}},
		{"-- ends the flags", []string{"output", "-json", "b"}, []string{"output", "-json", "--", "b"}},
	}
	for _, tt := range same {
		t.Run(tt.name, func(t *testing.T) {
			want, got := rig(t, dir, tt.before...), rig(t, dir, tt.after...)
			if want.code != 0 || got.code != 0 || got.stdout != want.stdout || strings.Contains(got.stdout, "\x1b[") {
				t.Errorf("rig %s: exit %d\n%s%s\nrig %s: exit %d\n%s%s", tt.before, want.code, want.stdout, want.stderr,
					tt.after, got.code, got.stdout, got.stderr)
			}
		})
	}

	if r := rig(t, dir, "workspace", "new", "staging", "-lock=false", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `Created and switched to workspace "staging"!`) {
		t.Errorf("workspace new staging -lock=false: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "workspace", "select", "default", "-no-color"); r.code != 0 {
		t.Errorf("workspace select default -no-color: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "workspace", "delete", "staging", "-no-color"); r.code != 0 {
		t.Errorf("workspace delete staging -no-color: exit %d\n%s", r.code, r.stderr)
	}
}
