//go:build unix

package proctest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestInterruptDuringHealthGate sends SIGINT to an apply while a new
// object waits at its health gate: rig stops waiting, rolls the new object
// back (the old one stays current), starts nothing else, reports the
// interrupted apply, and the state it saved lets the next apply finish.
func TestInterruptDuringHealthGate(t *testing.T) {
	bin := commandtest.BuildRig(t)
	exe := commandtest.TestProvider(t)
	world := t.TempDir()
	dir := commandtest.WorkDir(t, map[string]string{
		"main.tf": commandtest.GatedFleet(world, "v1", "0", 2),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"20ms\"\n  timeout  = \"10m\"\n  batch    = 1\n}\n",
	})
	env := devOverrides(t, exe)
	run := func(args ...string) (int, string, string) {
		r := commandtest.RunBinary(t, bin, dir, env, args...)
		return r.Code, r.Stdout, r.Stderr
	}
	if code, out, errs := run("apply", "-auto-approve", "-no-color", "-input=false"); code != 0 {
		t.Fatalf("first apply: exit %d\n%s%s", code, out, errs)
	}
	before, _ := commandtest.ReadStateFile(t, dir)

	commandtest.WriteFile(t, dir, "main.tf", commandtest.GatedFleet(world, "v2", "1000000", 2))
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-no-color", "-input=false")
	cmd.Env = env
	out, errb := startKept(t, cmd)
	// Interrupt once the new object has been read at its gate a few times.
	interruptOnceLogged(t, cmd, filepath.Join(world, "log"), func(b []byte) bool {
		return strings.Count(string(b), "read web0-v2") >= 3
	}, "the new object never waited at its gate")
	err := cmd.Wait()
	wantInterruptedExit(t, "apply", err, out.String()+errb.String())
	stderr := strings.Join(strings.Fields(errb.String()), " ")
	for _, want := range []string{"Interrupt received", "Error: Health gate failed", "Last result: the apply was interrupted while waiting; last check: Resource postcondition failed: web0-v2 is not ready."} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errb.String())
		}
	}
	if !strings.Contains(out.String(), "Apply report: interrupted.") || !strings.Contains(out.String(), "test_thing.lb (update)") {
		t.Errorf("no report of the interrupted apply:\n%s", out.String())
	}

	// The new object is rolled back; the old ones stay; nothing else ran.
	for id, want := range map[string]bool{"web0-v1": true, "web1-v1": true, "web0-v2": false, "web1-v2": false} {
		if _, err := os.Stat(filepath.Join(world, id)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", id, err == nil, want)
		}
	}
	after, _ := commandtest.ReadStateFile(t, dir)
	objects := func(sf commandtest.StateFile) []string {
		var objs []string
		for _, res := range sf.Resources {
			for _, in := range res.Instances {
				objs = append(objs, res.Type+" "+string(in.Attributes)+" deposed="+strconv.FormatBool(in.Deposed != "")+" "+in.Status)
			}
		}
		slices.Sort(objs)
		return objs
	}
	if got, want := strings.Join(objects(after), "\n"), strings.Join(objects(before), "\n"); got != want {
		t.Errorf("the state after the interrupt is not the state before:\n%s\nwant:\n%s", got, want)
	}
	var attrs struct{ Tags map[string]string }
	for _, res := range after.Resources {
		if res.Type == "test_thing" {
			_ = json.Unmarshal(res.Instances[0].Attributes, &attrs)
		}
	}
	if attrs.Tags["backends"] != "web0-v1,web1-v1" {
		t.Errorf("the dependent moved: %v", attrs.Tags)
	}

	// The next apply finishes the replacement.
	commandtest.WriteFile(t, dir, "main.tf", commandtest.GatedFleet(world, "v2", "1", 2))
	if code, o, e := run("apply", "-auto-approve", "-no-color", "-input=false"); code != 0 {
		t.Fatalf("apply after the interrupt: exit %d\n%s%s", code, o, e)
	}
	if code, o, e := run("plan", "-detailed-exitcode", "-no-color", "-input=false"); code != 0 {
		t.Errorf("plan after finishing: exit %d\n%s%s", code, o, e)
	}
}
