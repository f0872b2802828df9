package command

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
)

// console -plan evaluates against what a plan plans (unknown where the
// plan cannot know it), not the state; -json-into writes each result as a
// message into a file beside the console's output.
func TestConsolePlan(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "planned"
}
resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.id
}
`})
	r := rigInput(t, dir, "terraform_data.a.input\nlength(terraform_data.b)\nterraform_data.b[0].input\n", "console", "-plan", "-no-color")
	if r.code != 0 {
		t.Fatalf("console -plan: exit %d\n%s", r.code, r.stderr)
	}
	if want := "\"planned\"\n2\n(known after apply)\n"; r.stdout != want {
		t.Errorf("console -plan printed %q, want %q", r.stdout, want)
	}
	r = rigInput(t, dir, "terraform_data.a.input\n", "console", "-no-color")
	if r.code != 0 || strings.Contains(r.stdout, "planned") {
		t.Errorf("console without -plan, before apply: exit %d %q (want nothing the state does not hold)", r.code, r.stdout)
	}
	into := filepath.Join(t.TempDir(), "console.json")
	r = rigInput(t, dir, "1 + 1\n", "console", "-no-color", "-json-into="+into)
	if r.code != 0 || r.stdout != "2\n" {
		t.Errorf("console -json-into: exit %d %q", r.code, r.stdout)
	}
	if b, err := os.ReadFile(into); err != nil || !strings.Contains(string(b), `"@message":"2"`) {
		t.Errorf("the -json-into file: %v\n%s", err, b)
	}
}

// import -config=DIR reads the configuration from DIR, and records the
// object in the working directory's state.
func TestImportConfigDir(t *testing.T) {
	dir := workDir(t, map[string]string{"conf/main.tf": `resource "terraform_data" "a" {}` + "\n"})
	r := rig(t, dir, "import", "-no-color", "-input=false", "-config=conf", "terraform_data.a", "id-a")
	if r.code != 0 {
		t.Fatalf("import -config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ := readStateFile(t, dir)
	if len(sf.Resources) != 1 || sf.Resources[0].Name != "a" {
		t.Errorf("state after import -config: %+v", sf.Resources)
	}
	if r := rig(t, dir, "import", "-no-color", "-input=false", "terraform_data.a", "id-a"); r.code != 1 {
		t.Errorf("import without -config, in a directory without configuration: exit %d", r.code)
	}
}

// graph -format=mermaid writes a Mermaid flowchart; graph -plan=FILE draws
// the operations of a saved plan.
func TestGraphMermaidAndSavedPlan(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  input = terraform_data.a.id
}
`})
	r := rig(t, dir, "graph", "-format=mermaid")
	if want := "flowchart TD\n\tn0[\"terraform_data.a\"]\n\tn1[\"terraform_data.b\"]\n\tn0 --> n1\n"; r.code != 0 || r.stdout != want {
		t.Errorf("graph -format=mermaid: exit %d\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	mustRig(t, dir, "plan", "-no-color", "-out=p.plan")
	// The plan is drawn as it was saved, whatever the configuration says now.
	writeFile(t, dir, "main.tf", `resource "terraform_data" "c" {}`+"\n")
	r = rig(t, dir, "graph", "-plan=p.plan", "-format=mermaid")
	if want := "flowchart TD\n\tn0[\"terraform_data.a (create)\"]\n\tn1[\"terraform_data.b (create)\"]\n\tn0 --> n1\n"; r.code != 0 || r.stdout != want {
		t.Errorf("graph -plan: exit %d\n%s%s\nwant:\n%s", r.code, r.stdout, r.stderr, want)
	}
	if r := rig(t, dir, "graph", "-plan=p.plan", "-type=plan-destroy"); r.code != 1 {
		t.Errorf("graph -plan with -type=plan-destroy: exit %d", r.code)
	}
	if r := rig(t, dir, "graph", "-plan=nope.plan"); r.code != 1 || !strings.Contains(r.stderr, "Failed to read the given file as a plan") {
		t.Errorf("graph -plan of a missing file: exit %d\n%s", r.code, r.stderr)
	}
}

// A destroy that forgets objects (removed blocks with destroy = false)
// fails, as OpenTofu's does, unless -suppress-forget-errors.
func TestDestroySuppressForgetErrors(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}
resource "terraform_data" "b" {}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", `resource "terraform_data" "b" {}
removed {
  from = terraform_data.a
  lifecycle {
    destroy = false
  }
}
`)
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	r := rig(t, dir, "destroy", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Destroy was successful but left behind forgotten instances") {
		t.Errorf("destroy that forgets: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := rig(t, dir, "destroy", "-auto-approve", "-no-color", "-suppress-forget-errors"); r.code != 0 {
		t.Errorf("destroy -suppress-forget-errors: exit %d\n%s", r.code, r.stderr)
	}
}

// workspace new -state=PATH starts the workspace with a copy of a state.
func TestWorkspaceNewFromState(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}` + "\n"})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	pulled := mustRig(t, dir, "state", "pull")
	writeFile(t, dir, "seed.tfstate", pulled.stdout)
	if r := rig(t, dir, "workspace", "new", "-no-color", "-state=seed.tfstate", "copy"); r.code != 0 {
		t.Fatalf("workspace new -state: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "list"); r.stdout != "terraform_data.a\n" {
		t.Errorf("the new workspace lists %q", r.stdout)
	}
	if r := rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan in the copy: exit %d, want 0 (nothing to do)\n%s", r.code, r.stdout)
	}
	if r := rig(t, dir, "workspace", "new", "-no-color", "-state=missing.tfstate", "other"); r.code != 1 {
		t.Errorf("workspace new -state of a missing file: exit %d", r.code)
	}
}

// providers lock -net-mirror finds the packages in a network mirror (here
// one `providers mirror` wrote, served over HTTPS) instead of the registry.
func TestProvidersLockNetMirror(t *testing.T) {
	source := packedMirror(t, []string{"1.0.0", "1.2.0"}, "linux_amd64")
	dir := workDir(t, map[string]string{"main.tf": fakeConfig})
	out := filepath.Join(t.TempDir(), "mirror")
	mustRig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+source, "-platform=linux_amd64", out)
	srv := httptest.NewTLSServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	certFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile)
	r := rig(t, dir, "providers", "lock", "-no-color", "-net-mirror="+srv.URL+"/", "-platform=linux_amd64")
	if r.code != 0 || !strings.Contains(r.stdout, "Success! rig has updated the lock file.") {
		t.Fatalf("providers lock -net-mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	locks, ds := getproviders.ReadLockFile(filepath.Join(dir, getproviders.LockFileName))
	if ds.HasErrors() || len(locks.Providers) != 1 || locks.Sorted()[0].Version.String() != "1.2.0" {
		t.Errorf("lock file: %v %v", ds, locks.Providers)
	}
	for _, bad := range [][]string{{"-net-mirror=http://x/"}, {"-net-mirror=https://x/", "-fs-mirror=" + source}} {
		if r := rig(t, dir, append([]string{"providers", "lock", "-no-color"}, bad...)...); r.code != 1 {
			t.Errorf("providers lock %v: exit %d", bad, r.code)
		}
	}
}
