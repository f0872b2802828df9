package command

import (
	"strings"
	"testing"
)

// state list and state identities fail, as OpenTofu's state list and
// Terraform 1.16's state identities do, when an address they are given is
// not one or names nothing the state holds; a module address selects the
// instances of every module instance of the call.
func TestStateFiltersThatNameNothing(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":   "resource \"terraform_data\" \"a\" {}\n\nmodule \"m\" {\n  source = \"./m\"\n  count  = 2\n}\n",
		"m/main.tf": "resource \"terraform_data\" \"b\" {}\n",
	})
	rigOK(t, dir, "init", "-no-color")
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	// As in OpenTofu: the instances of each address in turn.
	r := rigOK(t, dir, "state", "list", "-no-color", "module.m", "terraform_data.a", "terraform_data.a")
	if want := "module.m[0].terraform_data.b\nmodule.m[1].terraform_data.b\nterraform_data.a\nterraform_data.a\n"; r.stdout != want {
		t.Errorf("state list module.m terraform_data.a terraform_data.a:\n%s\nwant:\n%s", r.stdout, want)
	}
	for _, tt := range []struct{ addr, summary, detail string }{
		{"terraform_data.nope", "Unknown resource", "The current state contains no resource terraform_data.nope."},
		{"terraform_data.a[0]", "Unknown resource instance", "The current state contains no resource instance terraform_data.a[0]."},
		{"module.x", "Unknown module", "The current state contains no module at module.x."},
		{"module.m[2].terraform_data.b", "Unknown resource", "The current state contains no resource module.m[2].terraform_data.b."},
		{"foo", "Invalid address", "Invalid target address \"foo\""},
	} {
		for _, args := range [][]string{{"state", "list"}, {"state", "identities", "-json"}} {
			r := rig(t, dir, append(args, "-no-color", "terraform_data.a", tt.addr)...)
			if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "\nError: "+tt.summary+"\n\n") || !strings.Contains(flat(r.stderr), tt.detail) {
				t.Errorf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), tt.addr, r.code, r.stdout, r.stderr)
			}
		}
	}
}
