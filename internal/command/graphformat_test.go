package command

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphFormats checks rig graph -format: DOT by default, an HTML page
// or an SVG image of the resources or of a plan's operations, to standard
// output or to -o FILE, and an error for an unknown format.
func TestGraphFormats(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	tests := []struct {
		name string
		args []string
		// want are strings the output holds.
		want []string
	}{
		{"dot", []string{"graph"}, []string{`digraph "rig"`, `"terraform_data.a"`}},
		{"html resources", []string{"graph", "-format=html"}, []string{"<!DOCTYPE html>", `"kind":"resources"`, `"address":"terraform_data.b"`}},
		{"html plan", []string{"graph", "-type=plan", "-format=html"}, []string{`"kind":"operations"`, `"label":"terraform_data.b (create)"`, `"action":"create"`}},
		{"svg plan", []string{"graph", "-type=plan", "-format=svg"}, []string{"<svg", `data-action="create"`, "terraform_data.b (create)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rig(t, dir, tt.args...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if strings.HasSuffix(tt.name, "svg plan") {
				if err := xml.Unmarshal([]byte(r.stdout), new(struct{})); err != nil {
					t.Errorf("not XML: %v", err)
				}
			}
		})
	}

	t.Run("-o writes the file", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "g.svg")
		r := rig(t, dir, "graph", "-format=svg", "-o", out)
		if r.code != 0 || r.stdout != "" {
			t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.HasPrefix(string(b), "<svg") {
			t.Fatalf("%s: %v %.40q", out, err, b)
		}
	})

	t.Run("unknown format", func(t *testing.T) {
		r := rig(t, dir, "graph", "-format=png")
		if r.code != 1 || !strings.Contains(r.stderr, `Unknown graph format "png"`) {
			t.Errorf("exit %d\n%s", r.code, r.stderr)
		}
	})
}
