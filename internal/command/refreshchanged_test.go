package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

const refreshChangedConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

resource "test_thing" "x" {
  count = 3
  key   = "k${count.index}"
  value = var.v
}

variable "v" {
  default = "v"
}
`

// TestPlanRefreshChanged: after an apply, a -refresh=changed plan reads
// nothing back and says so; a changed input makes it read the objects it
// changes; a state another tool wrote has unknown refresh times, so every
// object is read; rig.hcl's refresh = "changed" is the flag's default,
// and -refresh=true reads every object whatever it says.
func TestPlanRefreshChanged(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{"main.tf": refreshChangedConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if fi, err := os.Stat(filepath.Join(dir, ".terraform", "rig-refresh.json")); err == nil {
		t.Fatalf("refresh times kept (%v) before anyone asked for -refresh=changed", fi.Name())
	}

	steps := []struct {
		name      string
		before    func()
		args      []string
		wantReads int
		wantNote  string // a regular expression
	}{
		{name: "times unknown at first", args: []string{"plan", "-refresh=changed"}, wantReads: 3},
		{name: "nothing changed", args: []string{"plan", "-refresh=changed"}, wantReads: 0,
			wantNote: `3 objects not refreshed, last refreshed \d+s ago`},
		{name: "a plain plan reads every object", args: []string{"plan"}, wantReads: 3},
		{name: "a changed input", args: []string{"plan", "-refresh=changed", "-var", "v=w"}, wantReads: 3},
		{name: "the state written by another tool", before: func() { bumpSerial(t, dir) }, args: []string{"plan", "-refresh=changed"}, wantReads: 3},
		{name: "rig.hcl sets the default", before: func() { writeFile(t, dir, "rig.hcl", `refresh = "changed"`) },
			args: []string{"plan"}, wantReads: 0, wantNote: "3 objects not refreshed"},
		{name: "-refresh=true overrides rig.hcl", args: []string{"plan", "-refresh=true"}, wantReads: 3},
		{name: "refresh_max_age", before: func() { writeFile(t, dir, "rig.hcl", "refresh = \"changed\"\nrefresh_max_age = \"1ns\"") },
			args: []string{"plan"}, wantReads: 3},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		reads := live.Reads.Total()
		r := mustRig(t, dir, append(s.args, "-no-color")...)
		if got := live.Reads.Total() - reads; got != s.wantReads {
			t.Errorf("%s: %d objects read back, want %d", s.name, got, s.wantReads)
		}
		hasNote := strings.Contains(r.stdout, "not refreshed")
		if s.wantNote != "" && !regexp.MustCompile(s.wantNote).MatchString(r.stdout) || s.wantNote == "" && hasNote {
			t.Errorf("%s: plan output, want note %q:\n%s", s.name, s.wantNote, r.stdout)
		}
	}

	writeFile(t, dir, "rig.hcl", `refresh = "changed"`)
	r := mustRig(t, dir, "plan", "-json")
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Skipped struct {
				Count  int    `json:"count"`
				Oldest string `json:"oldest"`
			} `json:"refresh_skipped"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if msg.Type == "refresh_skipped" {
			found = true
			if msg.Skipped.Count != 3 || msg.Skipped.Oldest == "" {
				t.Errorf("refresh_skipped message: %s", line)
			}
		}
	}
	if !found {
		t.Errorf("no refresh_skipped message:\n%s", r.stdout)
	}

	r = mustRig(t, dir, "explain", "-no-color", "test_thing.x[0]")
	if !strings.Contains(r.stdout, "refresh: not read back (-refresh=changed): planned as recorded; last read back ") {
		t.Errorf("explain does not say the object was not refreshed:\n%s", r.stdout)
	}

	for setting, want := range map[string]string{
		`refresh = "sometimes"`:    "Invalid refresh",
		`refresh_max_age = "soon"`: "Invalid refresh_max_age",
		`refresh_max_age = "-1h"`:  "Invalid refresh_max_age",
		`progress_interval = "0s"`: "Invalid progress_interval",
		`progress_interval = 10`:   "Invalid progress_interval",
	} {
		writeFile(t, dir, "rig.hcl", setting)
		if r := rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "rig.hcl line 1") {
			t.Errorf("rig.hcl %s: exit %d, want 1 and %q at its line\n%s", setting, r.code, want, r.stderr)
		}
	}
	if r := rig(t, dir, "plan", "-refresh=often", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "want true, false or changed") {
		t.Errorf("-refresh=often: exit %d\n%s", r.code, r.stderr)
	}

	// The objects an apply writes are fresh: the next plan reads none.
	writeFile(t, dir, "rig.hcl", `refresh = "changed"`)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-var", "v=w")
	reads := live.Reads.Total()
	r = mustRig(t, dir, "plan", "-no-color", "-var", "v=w")
	if got := live.Reads.Total() - reads; got != 0 || !strings.Contains(r.stdout, "3 objects not refreshed") {
		t.Errorf("plan after an apply: %d objects read back, want 0\n%s", got, r.stdout)
	}
}

// bumpSerial rewrites the state file with the next serial, as another tool
// writing it would.
func bumpSerial(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "terraform.tfstate")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["serial"] = m["serial"].(float64) + 1
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
