package command

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend/http/stateserver"
)

// httpPassword is the password of the tests' state servers; no output may
// show it.
const httpPassword = "pw-Never-Printed-7"

// httpBlock is a terraform block selecting the state at path on srv, with
// locking; the password is left to -backend-config or the environment.
func httpBlock(srv *stateserver.Server, path string) string {
	addr := srv.URL + path
	return fmt.Sprintf("terraform {\n  backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n    username       = \"ci\"\n  }\n}\n", addr, addr, addr)
}

// noPassword fails the test if any output shows the password.
func noPassword(t *testing.T, what string, r result) {
	t.Helper()
	if strings.Contains(r.stdout+r.stderr, httpPassword) {
		t.Errorf("%s shows the password:\n%s%s", what, r.stdout, r.stderr)
	}
}

// TestHTTPLifecycle: init, apply, plan and destroy with the state on a
// state server that wants basic authentication, over plain HTTP and over
// TLS with a client certificate; each write names the lock, and the
// password shows nowhere.
func TestHTTPLifecycle(t *testing.T) {
	for _, useTLS := range []bool{false, true} {
		t.Run(fmt.Sprintf("TLS=%v", useTLS), func(t *testing.T) {
			srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: httpPassword, TLS: useTLS})
			if useTLS {
				t.Setenv("TF_HTTP_CLIENT_CA_CERTIFICATE_PEM", srv.CA)
				t.Setenv("TF_HTTP_CLIENT_CERTIFICATE_PEM", srv.ClientCert)
				t.Setenv("TF_HTTP_CLIENT_PRIVATE_KEY_PEM", srv.ClientKey)
			}
			dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/state/app") + simpleConfig})
			r := mustRig(t, dir, "init", "-no-color", "-input=false", "-backend-config=password="+httpPassword)
			noPassword(t, "init", r)
			if !strings.Contains(r.stdout, `Successfully configured the backend "http"`) {
				t.Errorf("init output:\n%s", r.stdout)
			}
			for _, args := range [][]string{
				{"apply", "-auto-approve", "-no-color", "-input=false"},
				{"plan", "-detailed-exitcode", "-no-color", "-input=false"},
				{"state", "list"},
				{"show", "-no-color"},
			} {
				r := mustRig(t, dir, args...)
				noPassword(t, args[0], r)
			}
			var st stateFile
			if err := json.Unmarshal(srv.State("/state/app"), &st); err != nil {
				t.Fatalf("the server's state: %v", err)
			}
			if len(st.Resources) != 2 {
				t.Errorf("the server's state has %d resources, want 2", len(st.Resources))
			}
			var locks, unlocks, writes int
			for _, req := range srv.Requests() {
				switch req.Method {
				case "LOCK":
					locks++
				case "UNLOCK":
					unlocks++
				case "POST":
					writes++
					if !strings.HasPrefix(req.Query, "ID=") {
						t.Errorf("a write without the lock's ID: %q", req.Query)
					}
				}
			}
			if locks == 0 || locks != unlocks || writes == 0 {
				t.Errorf("%d locks, %d unlocks, %d writes", locks, unlocks, writes)
			}
			if srv.LockInfo("/state/app") != nil {
				t.Error("the lock is still held")
			}
			info, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate"))
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("the backend record, which holds the password: %v, %v", info, err)
			}
			r = mustRig(t, dir, "destroy", "-auto-approve", "-no-color", "-input=false")
			noPassword(t, "destroy", r)
		})
	}
}

// TestHTTPWrongPassword: a refused password is reported without showing
// it, by init (which reads the state for the providers its objects need,
// as OpenTofu's does) and by plan.
func TestHTTPWrongPassword(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: "right"})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/s") + simpleConfig})
	for _, args := range [][]string{{"init", "-backend-config=password=" + httpPassword}, {"plan"}} {
		r := rig(t, dir, append(args, "-no-color", "-input=false")...)
		if r.code != 1 || !strings.Contains(r.stderr, "HTTP remote state endpoint invalid auth") {
			t.Errorf("%s with a wrong password: exit %d\n%s", args[0], r.code, r.stderr)
		}
		noPassword(t, args[0], r)
	}
}

// TestHTTPLockHeld: a lock Terraform holds on the server (its LOCK request
// made by the test) stops apply, which reports the holder.
func TestHTTPLockHeld(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/s") + simpleConfig})
	mustRig(t, dir, "init", "-no-color", "-input=false")
	tfInfo, err := os.ReadFile("../backend/testdata/terraform-1.11.4.lock.info")
	if err != nil {
		t.Fatal(err)
	}
	srv.Lock("/s", tfInfo)
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	checkContains(t, fmt.Sprintf("apply under Terraform's lock (exit %d)", r.code), r.stderr, "Error acquiring the state lock", "the HTTP server answered 423", "ID:        6d384548-ba5d-bca5-2f4c-7177264de875", "Who:       root@vm", "Version:   1.11.4")
	if r.code != 1 || srv.State("/s") != nil {
		t.Errorf("apply under Terraform's lock: exit %d, state written: %v", r.code, srv.State("/s") != nil)
	}
}

// TestHTTPRetried: a 500 answer is retried and the command succeeds; the
// default waits (one second, then two) apply.
func TestHTTPRetried(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/s") + simpleConfig})
	mustRig(t, dir, "init", "-no-color", "-input=false", "-backend-config=retry_wait_max=0")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	srv.FailNext(500)
	before := len(srv.Requests())
	mustRig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false")
	reqs := srv.Requests()[before:]
	if len(reqs) < 2 || reqs[0].Status != 500 || reqs[1].Method != reqs[0].Method || reqs[1].Status != 200 {
		t.Errorf("requests after the failure: %+v", reqs)
	}
	srv.FailNext(500, 500, 500)
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "giving up after 3 attempt(s)") {
		t.Errorf("plan against a failing server: exit %d\n%s", r.code, r.stderr)
	}
}

// TestHTTPWorkspacesNotSupported: only the default workspace exists.
func TestHTTPWorkspacesNotSupported(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/s") + simpleConfig})
	mustRig(t, dir, "init", "-no-color", "-input=false")
	if r := rig(t, dir, "workspace", "new", "dev"); r.code != 1 || !strings.Contains(r.stderr, "workspaces not supported") {
		t.Errorf("workspace new: exit %d\n%s", r.code, r.stderr)
	}
	if r := mustRig(t, dir, "workspace", "list"); strings.TrimSpace(r.stdout) != "* default" {
		t.Errorf("workspace list:\n%s", r.stdout)
	}
}

// TestHTTPMigrateRoundTrip: init -migrate-state from local to http, to pg,
// and back to local moves the state byte for byte.
func TestHTTPMigrateRoundTrip(t *testing.T) {
	p := newPGTarget(t)
	srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: httpPassword})
	t.Setenv("TF_HTTP_PASSWORD", httpPassword)
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	local := readFile(t, dir, "terraform.tfstate")

	writeFile(t, dir, "main.tf", httpBlock(srv, "/state/m")+simpleConfig)
	r := mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	noPassword(t, "init -migrate-state", r)
	if got := string(srv.State("/state/m")); got != local {
		t.Fatalf("the state on the server differs from the local one:\n%s\nwant:\n%s", got, local)
	}
	if got := readFile(t, dir, "terraform.tfstate"); got != "" {
		t.Errorf("the local state was left in place after migrating away: %d bytes", len(got))
	}
	mustRig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false")

	writeFile(t, dir, "main.tf", p.block()+simpleConfig)
	r = mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	noPassword(t, "init -migrate-state", r)
	if got, _ := p.row(t, "default"); got != local {
		t.Fatalf("the state in pg differs from the one on the server:\n%s\nwant:\n%s", got, local)
	}

	writeFile(t, dir, "main.tf", simpleConfig)
	mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if got := readFile(t, dir, "terraform.tfstate"); got != local {
		t.Errorf("the local state after the round trip differs:\n%s\nwant:\n%s", got, local)
	}
	mustRig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false")
}

// TestHTTPMigrateWorkspaces: a local state with a second workspace cannot
// move to the http backend, which keeps only the default one.
func TestHTTPMigrateWorkspaces(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	mustRig(t, dir, "workspace", "new", "dev")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	mustRig(t, dir, "workspace", "select", "default")
	writeFile(t, dir, "main.tf", httpBlock(srv, "/s")+simpleConfig)
	r := rig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if r.code != 1 || !strings.Contains(r.stderr, "workspaces not supported") {
		t.Errorf("init -migrate-state with two workspaces: exit %d\n%s", r.code, r.stderr)
	}
}

// TestHTTPRemoteState: terraform_remote_state reads outputs through the
// http backend.
func TestHTTPRemoteState(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: httpPassword})
	root := workDir(t, map[string]string{
		"a/main.tf": httpBlock(srv, "/state/a") + remoteStateA,
		"b/main.tf": fmt.Sprintf(`
data "terraform_remote_state" "a" {
  backend = "http"
  config = {
    address  = %q
    username = "ci"
    password = %q
    retry_max = 1
    headers = { X-Team = "infra" }
  }
}

output "x" {
  value = data.terraform_remote_state.a.outputs.x
}
`, srv.URL+"/state/a", httpPassword),
	})
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	mustRig(t, a, "init", "-no-color", "-input=false", "-backend-config=password="+httpPassword)
	mustRig(t, a, "apply", "-auto-approve", "-no-color", "-input=false")
	r := mustRig(t, b, "apply", "-auto-approve", "-no-color", "-input=false")
	noPassword(t, "apply", r)
	if !strings.Contains(r.stdout, `x = "hello"`) {
		t.Errorf("apply reading a's outputs:\n%s", r.stdout)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Method != "GET" || last.Header.Get("X-Team") != "infra" {
		t.Errorf("the remote state's request: %s with X-Team %q", last.Method, last.Header.Get("X-Team"))
	}
}

// TestHTTPForceUnlock: a lock left on the server by a holder that is gone
// is released by force-unlock with its ID, after confirmation.
func TestHTTPForceUnlock(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/s") + simpleConfig})
	mustRig(t, dir, "init", "-no-color", "-input=false")
	srv.Lock("/s", []byte(`{"ID":"left-behind","Operation":"OperationTypeApply","Who":"ci@runner-7"}`))
	if r := rig(t, dir, "force-unlock", "-no-color", "other-id"); r.code != 1 || !strings.Contains(r.stderr, "does not match") {
		t.Errorf("force-unlock with another ID: exit %d\n%s", r.code, r.stderr)
	}
	if r := rigInput(t, dir, "no\n", "force-unlock", "-no-color", "left-behind"); r.code != 1 || !strings.Contains(r.stdout, "ci@runner-7") || srv.LockInfo("/s") == nil {
		t.Errorf("force-unlock answered no: exit %d, lock held: %v\n%s%s", r.code, srv.LockInfo("/s") != nil, r.stdout, r.stderr)
	}
	if r := rigInput(t, dir, "yes\n", "force-unlock", "-no-color", "left-behind"); r.code != 0 || !strings.Contains(r.stdout, "successfully unlocked") {
		t.Errorf("force-unlock answered yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if srv.LockInfo("/s") != nil {
		t.Fatal("the lock is still held")
	}
	srv.Lock("/s", []byte(`{"ID":"again"}`))
	mustRig(t, dir, "force-unlock", "-force", "-no-color", "again")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
}

// TestHTTPUnreachable: a server that cannot be reached, with the password
// in the address itself, is reported without the password.
func TestHTTPUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://ci:" + httpPassword + "@" + l.Addr().String() + "/s"
	l.Close() // nothing listens there now
	block := fmt.Sprintf("terraform {\n  backend \"http\" {\n    address = %q\n    lock_address = %q\n    retry_max = 0\n  }\n}\n", addr, addr)
	dir := workDir(t, map[string]string{"main.tf": block + simpleConfig})
	for _, args := range [][]string{{"init", "-no-color", "-input=false"}, {"plan", "-no-color", "-input=false"}, {"apply", "-auto-approve", "-no-color", "-input=false"}, {"state", "list"}} {
		r := rig(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "connection refused") {
			t.Errorf("%s: exit %d\n%s", args[0], r.code, r.stderr)
		}
		noPassword(t, args[0], r)
	}
}
