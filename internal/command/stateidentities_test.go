package command

import (
	"strings"
	"testing"
)

// identitiesState records identities for two of three instances, one with
// a number a 64-bit float cannot hold exactly.
const identitiesState = `{
  "version": 4, "terraform_version": "1.16.0", "serial": 3, "lineage": "6f1c2d8e-0000-4000-8000-000000000001",
  "outputs": {},
  "resources": [
    {"mode": "managed", "type": "terraform_data", "name": "a", "provider": "provider[\"terraform.io/builtin/terraform\"]",
     "instances": [
       {"index_key": 0, "schema_version": 0, "attributes": {"id": "x1"},
        "identity_schema_version": 0, "identity": {"zone": "b", "id": "x1", "n": 12345678901234567890}},
       {"index_key": 1, "schema_version": 0, "attributes": {"id": "x2"}}
     ]},
    {"module": "module.m", "mode": "managed", "type": "terraform_data", "name": "b", "provider": "provider[\"terraform.io/builtin/terraform\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "y"}, "identity_schema_version": 1, "identity": {"id": "y"}}]}
  ],
  "check_results": null
}`

// TestStateIdentities: state identities -json prints the identities the
// state records by instance address, as Terraform 1.16 prints them,
// filtered by address and -id as state list filters.
func TestStateIdentities(t *testing.T) {
	dir := workDir(t, map[string]string{"terraform.tfstate": identitiesState})
	r := rig(t, dir, "state", "identities", "-json")
	want := `{
  "module.m.terraform_data.b": {
    "id": "y"
  },
  "terraform_data.a[0]": {
    "id": "x1",
    "n": 12345678901234567890,
    "zone": "b"
  }
}
`
	if r.code != 0 || r.stdout != want {
		t.Fatalf("state identities -json: exit %d\n%s\nwant\n%s\n%s", r.code, r.stdout, want, r.stderr)
	}
	r = rig(t, dir, "state", "identities", "module.m", "-json", "-id=y")
	if want := "{\n  \"module.m.terraform_data.b\": {\n    \"id\": \"y\"\n  }\n}\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("state identities module.m -id=y: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "state", "identities", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "requires the `-json` flag") {
		t.Fatalf("state identities without -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, t.TempDir(), "state", "identities", "-json", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "No state file was found") {
		t.Fatalf("state identities without a state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
