package workdir

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// TestSessionInAnotherDirectory opens a working directory that is not the
// process's, plans and applies there, and finds the state in that
// directory: everything a session reads and writes is relative to its Dir.
func TestSessionInAnotherDirectory(t *testing.T) {
	dir := t.TempDir()
	commandtest.WriteFile(t, dir, "main.tf", `
variable "name" {}
resource "terraform_data" "a" {
  input = var.name
}
output "name" {
  value = terraform_data.a.output
}
`)
	commandtest.WriteFile(t, dir, "terraform.tfvars", "name = \"from-tfvars\"\n")
	commandtest.WriteFile(t, dir, SettingsFile, "parallelism = 3\n")
	ctx := context.Background()
	d := New(dir, Options{})
	sess, ds := d.Open(ctx, OpenOptions{Operation: "OperationTypeApply", Lock: LockOptions{Lock: true}})
	defer sess.Close()
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if sess.Parallelism != 3 || sess.Workspace != "default" {
		t.Errorf("parallelism %d, workspace %q; want rig.hcl's 3 and default", sess.Parallelism, sess.Workspace)
	}
	if _, ok := sess.Sources[filepath.Join(dir, "terraform.tfvars")]; !ok {
		t.Errorf("sources %v lack the .tfvars file", keys(sess.Sources))
	}
	p, ds := sess.Plan(ctx, PlanOptions{Mode: plan.NormalMode})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	prepared, ds := apply.Prepare(sess.Config, p, apply.PrepareOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	final, ds := sess.Apply(ctx, prepared, ApplyOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if ds := sess.Persist(final, nil); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	sess.Close()

	data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("no state in the working directory: %v", err)
	}
	s, err := statefile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Outputs["name"].Value.AsString(); got != "from-tfvars" {
		t.Errorf("output name = %q, want the .tfvars value", got)
	}
	addr := addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}}}
	if s.Object(addrs.ObjectAddr{Instance: addr}) == nil {
		t.Errorf("terraform_data.a is not in the state")
	}
	if wd, _ := os.Getwd(); strings.HasPrefix(wd, dir) {
		t.Fatalf("the test ran in the working directory %s", wd)
	}
}

// TestOpenWithoutConfiguration: a directory without configuration files
// is refused, naming the operation, unless the options allow it (a
// destroy).
func TestOpenWithoutConfiguration(t *testing.T) {
	ctx := context.Background()
	d := New(t.TempDir(), Options{})
	sess, ds := d.Open(ctx, OpenOptions{Operation: "OperationTypePlan"})
	sess.Close()
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Plan requires configuration to be present") {
		t.Fatalf("diagnostics %v, want the plan's missing configuration", ds)
	}
	sess, ds = d.Open(ctx, OpenOptions{Operation: "OperationTypeApply", AllowEmpty: true})
	defer sess.Close()
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if sess.State == nil || !sess.State.Empty() || sess.Providers == nil {
		t.Errorf("an empty directory opens with an empty state and providers: %+v", sess)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
