package command

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProviderDiagnosticWithoutPathIsOnItsBlock plans with a provider
// whose ConfigureProvider fails with a diagnostic about no attribute: as
// in OpenTofu, the error is placed on the provider block's header, in
// the text and in the -json stream's range.
func TestProviderDiagnosticWithoutPathIsOnItsBlock(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
provider "test" {
  region = "fail"
}

resource "test_thing" "a" {
  name = "a"
}
`})
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 1 {
		t.Fatalf("plan exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "Error: Configuration failed\n\n" +
		"  with provider[\"registry.terraform.io/rig/test\"],\n" +
		"  on main.tf line 8, in provider \"test\":\n" +
		"   8: provider \"test\" {\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("plan error not on the provider block; want\n%s\ngot:\n%s", want, r.stderr)
	}

	r = rig(t, dir, "plan", "-json")
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic struct {
				Summary string `json:"summary"`
				Range   *struct {
					Filename string `json:"filename"`
					Start    struct{ Line, Column int }
				} `json:"range"`
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("plan -json printed a line that is not JSON: %q", line)
		}
		if msg.Type != "diagnostic" || msg.Diagnostic.Summary != "Configuration failed" {
			continue
		}
		found = true
		if rng := msg.Diagnostic.Range; rng == nil || rng.Filename != "main.tf" || rng.Start.Line != 8 || rng.Start.Column != 17 {
			t.Errorf("plan -json diagnostic range %+v, want main.tf 8:17 (the opening brace)", rng)
		}
	}
	if !found {
		t.Errorf("plan -json printed no Configuration failed diagnostic:\n%s", r.stdout)
	}
}
