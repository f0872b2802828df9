package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestRefreshChangedProgressCountsWhatIsRead: while a -refresh=changed
// plan reads back the one object whose input changed, its progress counts
// that object alone, not the two it plans as recorded (the line and the
// "progress" message).
func TestRefreshChangedProgressCountsWhatIsRead(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
variable "v" {
  default = "v"
}
resource "test_thing" "x" {
  count = 3
  key   = "k${count.index}"
  value = count.index == 0 ? var.v : "fixed"
}
`,
		"rig.hcl": "refresh = \"changed\"\nprogress_interval = \"20ms\"",
	})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	mustRig(t, dir, "plan", "-no-color") // every time is known from now on

	release := live.Reads.Block()
	defer release()
	stream := filepath.Join(t.TempDir(), "stream.json")
	done := make(chan result)
	go func() { done <- rig(t, dir, "plan", "-no-color", "-var", "v=w", "-json-into="+stream) }()
	deadline := time.Now().Add(2 * time.Minute) // only keeps a broken build from hanging
	for {
		b, _ := os.ReadFile(stream)
		if strings.Contains(string(b), `"phase":"refresh"`) {
			if !strings.Contains(string(b), `"progress":{"done":0,"elapsed_seconds":`) || !strings.Contains(string(b), `"total":1}`) {
				t.Errorf("progress while the one object is read:\n%s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			release()
			t.Fatalf("no refresh progress while a read was held:\n%s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	release()
	r := <-done
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Still refreshing... 0/1 (") || strings.Contains(r.stdout, "/3 (") {
		t.Errorf("progress lines count objects not read back:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "2 objects not refreshed") {
		t.Errorf("plan does not say 2 objects were not refreshed:\n%s", r.stdout)
	}
}
