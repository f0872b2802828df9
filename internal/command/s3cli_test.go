package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// TestS3Lifecycle runs init, plan, apply and destroy through the s3
// backend with each kind of lock, and checks what a user sees: the state
// object, the record, no secret in any output, and a lock held elsewhere
// reported with its holder.
func TestS3Lifecycle(t *testing.T) {
	for _, kind := range []struct {
		name             string
		lockfile, dynamo bool
	}{{"lockfile", true, false}, {"dynamodb", false, true}, {"both", true, true}} {
		t.Run(kind.name, func(t *testing.T) {
			p := newS3Target(t, kind.lockfile, kind.dynamo)
			dir := workDir(t, map[string]string{"main.tf": p.block() + simpleConfig})
			var outputs []string
			run := func(args ...string) result {
				t.Helper()
				r := mustRig(t, dir, args...)
				outputs = append(outputs, r.stdout, r.stderr)
				return r
			}
			r := run("init", "-no-color")
			if !strings.Contains(r.stdout, `Successfully configured the backend "s3"`) {
				t.Errorf("init output:\n%s", r.stdout)
			}
			rec := readFile(t, dir, ".terraform/terraform.tfstate")
			if !strings.Contains(rec, `"type": "s3"`) {
				t.Errorf("record:\n%s", rec)
			}
			if fi, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate")); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("record mode %v, %v; want 0600 (it holds secret_key)", fi.Mode(), err)
			}
			run("apply", "-auto-approve", "-no-color", "-input=false")
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); !os.IsNotExist(err) {
				t.Errorf("apply through s3 wrote a local state file: %v", err)
			}
			sf := p.state(t, "default")
			if instanceCount(sf) != 2 || sf.Serial == 0 {
				t.Fatalf("state in S3: %d instances, serial %d", instanceCount(sf), sf.Serial)
			}
			if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("plan after apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r, obj := run("state", "pull"), must(p.object(t, "default")); r.stdout != obj {
				t.Errorf("state pull printed something other than the stored state")
			}
			if p.lockfile {
				if _, held := p.srv.Object("state", s3TestKey+".tflock"); held {
					t.Error("the lock object is left after apply")
				}
			}

			// A lock held elsewhere (another machine's rig, Terraform,
			// OpenTofu) stops apply, naming the holder.
			held := p.store(t, "default")
			info := backend.NewLockInfo("OperationTypeApply")
			info.Who = "alice@build-host"
			id, err := held.Lock(context.Background(), info)
			if err != nil {
				t.Fatal(err)
			}
			r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two")
			outputs = append(outputs, r.stdout, r.stderr)
			if r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, "alice@build-host") || !strings.Contains(r.stderr, id) {
				t.Fatalf("apply while locked: exit %d, want 1 naming the holder:\n%s", r.code, r.stderr)
			}
			if got := p.state(t, "default").Serial; got != sf.Serial {
				t.Errorf("the locked state was written: serial %d", got)
			}
			// Such a lock outlives its holder: force-unlock with its ID frees it.
			r = run("force-unlock", "-force", id)
			if !strings.Contains(r.stdout, "successfully unlocked") {
				t.Errorf("force-unlock output:\n%s", r.stdout)
			}
			run("apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two")
			if got := p.state(t, "default").Serial; got <= sf.Serial {
				t.Errorf("serial after an update = %d, want above %d", got, sf.Serial)
			}
			run("destroy", "-auto-approve", "-no-color", "-input=false")
			if sf := p.state(t, "default"); instanceCount(sf) != 0 {
				t.Errorf("after destroy the state has %d instances", instanceCount(sf))
			}
			for _, out := range outputs {
				if strings.Contains(out, s3TestSecret) {
					t.Fatalf("the secret key was printed:\n%s", out)
				}
			}
			// A changed backend block needs init again.
			writeFile(t, dir, "main.tf", strings.Replace(p.block(), s3TestKey, "other/terraform.tfstate", 1)+simpleConfig)
			if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, `Backend initialization required: please run "rig init"`) {
				t.Fatalf("plan with a changed backend: exit %d\n%s", r.code, r.stderr)
			}
		})
	}
}

func must[T any](v T, ok bool) T { return v }

// TestS3BackendConfigFlags: an s3 block completed by -backend-config
// values (KEY=VALUE, an object given as an expression, and a file), which
// init records for later commands.
func TestS3BackendConfigFlags(t *testing.T) {
	p := newS3Target(t, true, false)
	partial := "terraform {\n  backend \"s3\" {\n    key = \"" + s3TestKey + "\"\n  }\n}\n"
	dir := workDir(t, map[string]string{"main.tf": partial + simpleConfig})
	var file strings.Builder
	for _, line := range strings.Split(p.settings(), "\n") {
		if f := strings.TrimSpace(line); f != "" && !strings.HasPrefix(f, "key ") && !strings.HasPrefix(f, "endpoints ") && !strings.HasPrefix(f, "bucket ") {
			file.WriteString(f + "\n")
		}
	}
	writeFile(t, dir, "s3.tfbackend", file.String())
	mustRig(t, dir, "init", "-no-color", "-backend-config=s3.tfbackend", "-backend-config=bucket=state",
		`-backend-config=endpoints={ s3 = "`+p.srv.URL+`" }`)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if sf := p.state(t, "default"); instanceCount(sf) != 2 {
		t.Fatalf("state in S3 has %d instances", instanceCount(sf))
	}
	// Later commands and a second init use the recorded values; an init
	// with the same values changes nothing.
	rec := readFile(t, dir, ".terraform/terraform.tfstate")
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "init", "-no-color", "-input=false", "-backend-config=s3.tfbackend", "-backend-config=bucket=state",
		`-backend-config=endpoints={ s3 = "`+p.srv.URL+`" }`)
	if again := readFile(t, dir, ".terraform/terraform.tfstate"); again != rec {
		t.Errorf("init with the same values changed the record:\n%s\nwas:\n%s", again, rec)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "init", "-no-color", "-backend-config=endpoints={ ftp = \"x\" }"); r.code != 1 || !strings.Contains(r.stderr, `no attribute "ftp"`) {
		t.Errorf("init with an unknown endpoint: exit %d\n%s", r.code, r.stderr)
	}
}

// TestS3Problems: configuration problems are reported before any request,
// without the secrets.
func TestS3Problems(t *testing.T) {
	p := newS3Target(t, true, false)
	tests := []struct {
		name, block, want string
	}{
		{"missing bucket", strings.Replace(p.block(), `bucket                      = "state"`, "", 1), `The "bucket" attribute value must not be empty`},
		{"unknown setting", strings.Replace(p.block(), "max_retries", "retries", 1), `The s3 backend has no setting named "retries"`},
		{"missing bucket on the server", strings.Replace(p.block(), `"state"`, `"nobucket"`, 1), "bucket nobucket does not exist"},
		{"missing table", strings.Replace(p.block(), "use_lockfile", `dynamodb_table = "nope"`+"\n    use_lockfile", 1), "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tt.block + simpleConfig})
			r := rig(t, dir, "init", "-no-color", "-input=false")
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("init: exit %d, want 1 and %q:\n%s", r.code, tt.want, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, s3TestSecret) {
				t.Errorf("the secret key was printed:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// TestS3Workspaces drives the workspace commands: each workspace's state
// is the object env:/NAME/KEY, listed by prefix.
func TestS3Workspaces(t *testing.T) {
	p := newS3Target(t, true, false)
	dir := workDir(t, map[string]string{"main.tf": p.block() + simpleConfig})
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "workspace", "new", "dev")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=dev")
	if sf := p.state(t, "dev"); instanceCount(sf) != 2 {
		t.Fatalf("workspace dev's object has %d instances", instanceCount(sf))
	}
	mustRig(t, dir, "workspace", "new", "qa")
	if r := mustRig(t, dir, "workspace", "list"); r.stdout != "  default\n  dev\n* qa\n\n" {
		t.Errorf("list = %q", r.stdout)
	}
	mustRig(t, dir, "workspace", "select", "default")
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
		t.Errorf("default workspace sees dev's state: plan exit %d", r.code)
	}
	mustRig(t, dir, "workspace", "delete", "-force", "dev")
	if _, ok := p.object(t, "dev"); ok {
		t.Error("workspace dev's object is left after delete")
	}
	if r := mustRig(t, dir, "workspace", "list"); r.stdout != "* default\n  qa\n\n" {
		t.Errorf("list after delete = %q", r.stdout)
	}
}

// TestS3RemoteState: terraform_remote_state reads the outputs of a state
// in S3.
func TestS3RemoteState(t *testing.T) {
	p := newS3Target(t, true, false)
	producer := workDir(t, map[string]string{"main.tf": p.block() + `output "greeting" { value = "hello from s3" }` + "\n"})
	mustRig(t, producer, "init", "-no-color")
	mustRig(t, producer, "apply", "-auto-approve", "-no-color", "-input=false")

	consumer := workDir(t, map[string]string{"main.tf": `
data "terraform_remote_state" "team" {
  backend = "s3"
  config = {
` + p.settings() + `  }
}
output "got" { value = data.terraform_remote_state.team.outputs.greeting }
`})
	mustRig(t, consumer, "apply", "-auto-approve", "-no-color", "-input=false")
	if r := mustRig(t, consumer, "output", "-raw", "got"); r.stdout != "hello from s3" {
		t.Errorf("output = %q", r.stdout)
	}
}
