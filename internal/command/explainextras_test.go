package command

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestExplainActionsAndEphemerals runs the scenarios of
// testdata/explainextras/*.txtar with the plugin test provider: main.tf is
// planned and each line of args is run as `rig explain LINE` and
// `rig explain -json LINE`, whose outputs are the want and want.json
// sections (rewritten with -update). No output holds a sensitive or
// ephemeral value.
func TestExplainActionsAndEphemerals(t *testing.T) {
	actionsWorld(t)
	txtartest.Run(t, filepath.Join("testdata", "explainextras", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		files := txtartest.Files(ar, "args", "want", "want.json")
		args := txtartest.Files(ar)["args"]
		dir := workDir(t, files)
		var text, js strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(args), "\n") {
			// Leading options, then one address.
			args := strings.Fields(line)
			r := rig(t, dir, append([]string{"explain", "-no-color"}, args...)...)
			text.WriteString("$ rig explain " + line + "\n" + withoutOverrideWarning(r.stdout) + errorSection(r) + "\n")
			r = rig(t, dir, append([]string{"explain", "-no-color", "-json"}, args...)...)
			js.WriteString("$ rig explain -json " + line + "\n" + withoutOverrideWarning(r.stdout) + errorSection(r) + "\n")
		}
		for _, out := range []string{text.String(), js.String()} {
			for _, secret := range []string{"hush-4711", "token-tok"} {
				if strings.Contains(out, secret) {
					t.Errorf("explain shows %q:\n%s", secret, out)
				}
			}
		}
		txtartest.Check(t, path, ar, "want", normalize(text.String()), *update)
		txtartest.Check(t, path, ar, "want.json", normalize(js.String()), *update)
	})
}

// errorSection is the errors r printed, from the first, when it failed
// (the warning of the provider's development override left out).
func errorSection(r result) string {
	if r.code == 0 {
		return ""
	}
	_, errs, _ := strings.Cut(r.stderr, "Error: ")
	return "(exit " + strconv.Itoa(r.code) + ")\nError: " + errs
}

// A gated replacement is explained with its health gate: how often and
// how long it checks, and what each check reads again.
func TestExplainHealthGate(t *testing.T) {
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": probedConfig(world, "v1", "1"),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval   = \"10ms\"\n  timeout    = \"20s\"\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", probedConfig(world, "v2", "1"))
	r := rigOK(t, dir, "explain", "-no-color", "test_service.web")
	want := "  health gate (rig.hcl): the new object waits, before anything moves onto it, until its postconditions pass, checked at once and every 10ms for up to 20s\n" +
		"    each check reads again: data.test_probe.health, then the new object\n" +
		"    postcondition at main.tf:17\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("explain test_service.web lacks:\n%s\nin:\n%s", want, r.stdout)
	}
	r = rigOK(t, dir, "explain", "-no-color", "-json", "test_service.web")
	var rep struct {
		Objects []struct {
			HealthGate *struct {
				Interval float64  `json:"interval_seconds"`
				Reads    []string `json:"reads"`
			} `json:"health_gate"`
		} `json:"objects"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Objects) != 1 || rep.Objects[0].HealthGate == nil || rep.Objects[0].HealthGate.Interval != 0.01 ||
		strings.Join(rep.Objects[0].HealthGate.Reads, ",") != "data.test_probe.health" {
		t.Errorf("explain -json test_service.web: health gate not as configured:\n%s", r.stdout)
	}
	// An object whose change is not gated says nothing of a gate.
	if r := rigOK(t, dir, "explain", "-no-color", "test_thing.lb"); strings.Contains(r.stdout, "health gate") {
		t.Errorf("explain test_thing.lb mentions a gate:\n%s", r.stdout)
	}
}

// withoutOverrideWarning is out without the warning that the test
// provider is a development override.
func withoutOverrideWarning(out string) string {
	const start, end = "Warning: Provider development overrides are in effect\n", "published\nreleases.\n"
	i := strings.Index(out, start)
	if i < 0 {
		return out
	}
	j := strings.Index(out[i:], end)
	if j < 0 {
		return out
	}
	rest := strings.TrimPrefix(out[i+j+len(end):], "\n")
	return strings.TrimSuffix(out[:i], "\n") + rest
}
