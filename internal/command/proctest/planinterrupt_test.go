//go:build unix

package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// services is count test_service objects at version, logged in world.
func services(world, version string) string {
	return `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_service" "s" {
  count   = 12
  dir     = "` + filepath.ToSlash(world) + `"
  name    = "s${count.index}"
  version = "` + version + `"
}
`
}

// TestInterruptedPlanFails sends SIGINT to a plan while it reads its
// objects back, slowly: the plan ends with status 1 and the interruption
// as an error, in the human output and in the -json stream, and saves no
// plan file.
func TestInterruptedPlanFails(t *testing.T) {
	bin := commandtest.BuildRig(t)
	exe := commandtest.TestProvider(t)
	world := t.TempDir()
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": services(world, "v1")})
	env := devOverrides(t, exe)
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-no-color", "-input=false")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("first apply: %v\n%s", err, out)
	}
	commandtest.WriteFile(t, dir, "main.tf", services(world, "v2"))
	for _, tc := range []struct {
		name string
		json bool
	}{{"human", false}, {"json", true}} {
		t.Run(tc.name, func(t *testing.T) {
			logged, _ := os.ReadFile(filepath.Join(world, "log"))
			args := []string{"-chdir=" + dir, "plan", "-no-color", "-input=false", "-parallelism=2", "-out=tfplan"}
			if tc.json {
				args = append(args, "-json")
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = append(env, "RIG_TESTPROVIDER_CALL_DELAY=200ms")
			out, errb := startKept(t, cmd)
			// Interrupt once the plan has read the first object back.
			interruptOnceLogged(t, cmd, filepath.Join(world, "log"), func(b []byte) bool {
				return strings.Contains(string(b[len(logged):]), "read ")
			}, "the plan never read an object")
			err := cmd.Wait()
			wantInterruptedExit(t, "plan", err, out.String()+errb.String())
			if !tc.json && (!strings.Contains(errb.String(), "Interrupt received.") || !strings.Contains(errb.String(), "Error: Operation cancelled")) {
				t.Errorf("the interrupt is not announced, or no error reports it:\n%s", errb.String())
			}
			if tc.json {
				if announced, cancelled := jsonReportsInterrupt(t, out.String(), "Operation cancelled"); !announced || !cancelled {
					t.Errorf("the -json stream does not announce the interrupt (%v) or report it as an error (%v):\n%s", announced, cancelled, out.String())
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "tfplan")); !os.IsNotExist(err) {
				t.Errorf("the interrupted plan was saved (%v)", err)
			}
		})
	}
}
