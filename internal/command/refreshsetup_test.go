package command

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// appliedThings makes a working directory served by live whose main.tf
// declares test_thing.x with count n, of which only x[0] takes var.v (so
// that -var v=w changes it alone), followed by more; rigHCL, when not
// empty, is its rig.hcl. It applies the configuration and returns the
// directory.
func appliedThings(t *testing.T, live *providertest.Provider, n int, more, rigHCL string) string {
	t.Helper()
	withTestProvider(t, live)
	files := map[string]string{"main.tf": fmt.Sprintf(`
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
variable "v" {
  default = "v"
}
resource "test_thing" "x" {
  count = %d
  key   = "k${count.index}"
  value = count.index == 0 ? var.v : "fixed"
}
`, n) + more}
	if rigHCL != "" {
		files["rig.hcl"] = rigHCL
	}
	dir := workDir(t, files)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	return dir
}

// runStreaming starts rig with args in dir, its JSON stream written into a
// new file, and returns that file's path and the channel the result comes
// on once rig has ended.
func runStreaming(t *testing.T, dir string, args ...string) (stream string, done <-chan result) {
	t.Helper()
	stream = filepath.Join(t.TempDir(), "stream.json")
	ch := make(chan result, 1)
	go func() { ch <- rig(t, dir, append(args, "-json-into="+stream)...) }()
	return stream, ch
}

// awaitStream reads the JSON stream at path until seen accepts what it
// holds, and returns that. Should two minutes pass first (a limit that
// only keeps a broken build from hanging), it calls release and fails
// with what, the event it waited for.
func awaitStream(t *testing.T, path, what string, release func(), seen func(stream string) bool) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(path)
		if seen(string(b)) {
			return string(b)
		}
		if time.Now().After(deadline) {
			release()
			t.Fatalf("no %s:\n%s", what, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
