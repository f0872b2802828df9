package command

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/version"
)

const versionLockFile = `provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}
`

// TestVersion checks `rig version`, its -json form and the global
// -version option: rig's version, the platform, the Terraform version rig
// is compatible with and the providers the lock file selects.
func TestVersion(t *testing.T) {
	dir := workDir(t, map[string]string{".terraform.lock.hcl": versionLockFile})
	platform := runtime.GOOS + "_" + runtime.GOARCH
	want := "rig v0.1.0\non " + platform + "\ncompatible with OpenTofu and Terraform v1.10.6\n+ provider registry.terraform.io/hashicorp/random v3.6.0\n"
	for _, args := range [][]string{{"version"}, {"-version"}, {"-v"}} {
		r := rig(t, dir, args...)
		if r.code != 0 || r.stdout != want {
			t.Errorf("rig %s: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}

	r := rig(t, dir, "version", "-json")
	if r.code != 0 {
		t.Fatalf("version -json: exit %d\n%s", r.code, r.stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("version -json is not JSON: %v\n%s", err, r.stdout)
	}
	wantJSON := map[string]any{
		"terraform_version":   "1.10.6",
		"platform":            platform,
		"provider_selections": map[string]any{"registry.terraform.io/hashicorp/random": "3.6.0"},
		"rig_version":         "0.1.0",
	}
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("version -json (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(r.stdout, "{\n  \"terraform_version\": \"1.10.6\",\n  \"platform\"") {
		t.Errorf("version -json is not in tofu's field order and indentation:\n%s", r.stdout)
	}
}

// TestVersionEverywhere checks that the one compatibility version is the
// one in the state file, the -json stream and the JSON state, and that the
// constants are the documented ones.
func TestVersionEverywhere(t *testing.T) {
	if version.Rig != "0.1.0" || version.Terraform != "1.10.6" {
		t.Fatalf("versions %s, %s: update README's Versions section, the goldens and this test together", version.Rig, version.Terraform)
	}
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	r := rig(t, dir, "apply", "-json", "-auto-approve", "-input=false")
	if r.code != 0 {
		t.Fatalf("apply -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	first := parseLines(t, r.stdout)[0]
	if first["type"] != "version" || first["terraform"] != version.Terraform || first["rig"] != version.Rig || first["@message"] != "rig "+version.Rig {
		t.Errorf("version message = %v", first)
	}
	if sf, _ := readStateFile(t, dir); sf.TerraformVersion != version.Terraform {
		t.Errorf("state terraform_version = %q, want %q", sf.TerraformVersion, version.Terraform)
	}
	r = rig(t, dir, "show", "-json")
	var shown struct {
		TerraformVersion string `json:"terraform_version"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil || shown.TerraformVersion != version.Terraform {
		t.Errorf("show -json terraform_version = %q, %v", shown.TerraformVersion, err)
	}
}
