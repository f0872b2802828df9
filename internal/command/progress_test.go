package command

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestProgressOfALongApply: while an operation is slow, apply reports how
// far it has come every progress_interval (rig.hcl), as a line and as a
// "progress" message of the JSON stream.
func TestProgressOfALongApply(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
resource "test_thing" "a" { key = "a" }
resource "test_thing" "b" { key = "b" }
`,
		"rig.hcl": `progress_interval = "20ms"`,
	})
	release := live.BlockOn("b", providertest.Create)
	stream, done := runStreaming(t, dir, "apply", "-auto-approve", "-no-color")
	// Wait for a progress message that counts test_thing.a done while
	// test_thing.b is held.
	awaitStream(t, stream, "progress message while an operation was held", release, func(b string) bool {
		return strings.Contains(b, `"progress":{"done":1,`) && strings.Contains(b, `"phase":"apply"`)
	})
	release()
	r := <-done
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Still applying... 1/2 (") {
		t.Errorf("apply output has no progress line:\n%s", r.stdout)
	}
}
