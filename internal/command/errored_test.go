package command

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend/pg"
	"github.com/rig-iac/rig/internal/backend/pg/pgtest"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/zclconf/go-cty/cty"
)

// gatedProvider holds back the apply of any object whose planned input
// starts with "second" until the test opens the gate.
type gatedProvider struct {
	provider.Interface
	reached func()
	release <-chan struct{}
}

func (p gatedProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	if in := req.PlannedState; !in.IsNull() && in.Type().IsObjectType() && in.Type().HasAttribute("input") {
		if v := in.GetAttr("input"); v.IsKnown() && !v.IsNull() && v.Type() == cty.String && strings.HasPrefix(v.AsString(), "second") {
			p.reached()
			<-p.release
		}
	}
	return p.Interface.ApplyResourceChange(ctx, req)
}

const twoStepConfig = `
resource "terraform_data" "a" {
  input = "first"
}

resource "terraform_data" "b" {
  input = "second-${terraform_data.a.output}"
}
`

// TestPGConnectionLossMidApply ends rig's database session between two
// operations of an apply. When the database takes connections again at
// once, the write is retried on a new session and the apply succeeds; when
// it does not, the apply fails with the state in errored.tfstate, and
// `rig state push errored.tfstate` restores it once the database is back.
func TestPGConnectionLossMidApply(t *testing.T) {
	for _, tc := range []struct {
		name      string
		reconnect bool
	}{
		{"write retried on a new session", true},
		{"state kept in errored.tfstate", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The waits between retries are cut short; the apply still
			// tries as many times before it gives up.
			retry := pg.DefaultRetry
			pg.DefaultRetry = pg.Retry{Attempts: retry.Attempts, Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}
			t.Cleanup(func() { pg.DefaultRetry = retry })
			server := pgtest.Server(t)
			db := pgtest.NewDatabase(t)
			var dbName string
			if i := strings.LastIndex(db, "/"); i >= 0 {
				dbName, _, _ = strings.Cut(db[i+1:], "?")
			}
			app := "rigtest_" + pgtest.Schema(t)[3:]
			p := pgTarget{conn: pgtest.WithParam(db, "application_name", app), schema: "terraform_remote_state"}
			dir := workDir(t, map[string]string{"main.tf": p.block() + twoStepConfig})
			mustRig(t, dir, "init", "-no-color")

			reached, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			orig := newBuiltinTerraform
			newBuiltinTerraform = func(read builtin.RemoteStateReader) provider.Interface {
				return gatedProvider{Interface: orig(read), reached: func() { once.Do(func() { close(reached) }) }, release: release}
			}
			t.Cleanup(func() { newBuiltinTerraform = orig })

			done := make(chan result, 1)
			go func() { done <- rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false") }()
			// However the test ends, the apply is let go and waited for, so
			// that a failure here never leaves it blocked at the gate.
			var releaseOnce sync.Once
			letGo := func() { releaseOnce.Do(func() { close(release) }) }
			t.Cleanup(func() {
				letGo()
				select {
				case <-done:
				case <-time.After(2 * time.Minute):
				}
			})
			select {
			case <-reached:
			case r := <-done:
				t.Fatalf("apply ended before its second operation: exit %d\n%s", r.code, r.stderr)
			case <-time.After(60 * time.Second):
				t.Fatal("apply never reached its second operation")
			}
			if n := p.durableInstances(t, "default"); n != 1 {
				t.Fatalf("before the connection loss the state and its journal hold %d instances, want 1", n)
			}
			if !tc.reconnect {
				pgtest.Exec(t, server, "ALTER DATABASE "+dbName+" ALLOW_CONNECTIONS false")
			}
			// The session holding the lock, and any other rig has open at
			// that moment (a read of the remote state closing): all lost.
			if n := terminateSessions(t, server, app); n < 1 {
				t.Fatalf("terminated %d sessions of rig, want the one holding the lock", n)
			}
			letGo()
			r := <-done
			done <- r // for the cleanup
			newBuiltinTerraform = orig

			errored := filepath.Join(dir, "errored.tfstate")
			if tc.reconnect {
				if r.code != 0 {
					t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
				if sf := p.state(t, "default"); instanceCount(sf) != 2 {
					t.Errorf("state has %d instances, want 2", instanceCount(sf))
				}
				if _, err := os.Stat(errored); !os.IsNotExist(err) {
					t.Errorf("errored.tfstate written after a successful retry: %v", err)
				}
				return
			}

			if r.code != 1 || !strings.Contains(r.stderr, "Failed to persist state to backend") || !strings.Contains(r.stderr, "rig state push errored.tfstate") {
				t.Fatalf("apply: exit %d, want 1 pointing at errored.tfstate:\n%s", r.code, r.stderr)
			}
			if want := fmt.Sprintf("giving up after %d attempts", retry.Attempts); !strings.Contains(r.stderr, want) {
				t.Errorf("the apply did not retry the write %d times:\n%s", retry.Attempts, r.stderr)
			}
			t.Logf("apply's diagnostics:\n%s", r.stderr)
			data, err := os.ReadFile(errored)
			if err != nil {
				t.Fatal(err)
			}
			var sf stateFile
			if err := json.Unmarshal(data, &sf); err != nil || instanceCount(sf) != 2 {
				t.Fatalf("errored.tfstate: %d instances, %v", instanceCount(sf), err)
			}
			pgtest.Exec(t, server, "ALTER DATABASE "+dbName+" ALLOW_CONNECTIONS true")
			if n := p.durableInstances(t, "default"); n != 1 {
				t.Fatalf("the database (state and journal) has %d instances before the push, want 1", n)
			}
			mustRig(t, dir, "state", "push", "errored.tfstate")
			// The push folds the journal in first (serial sf.Serial), then
			// writes errored.tfstate over it with the next serial.
			if got := p.state(t, "default"); instanceCount(got) != 2 || got.Serial < sf.Serial || got.Lineage != sf.Lineage {
				t.Errorf("after state push: %d instances, serial %d, lineage %s; want errored.tfstate's", instanceCount(got), got.Serial, got.Lineage)
			}
			if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
				t.Errorf("plan after recovery: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestStatePushChecks: push refuses an unrelated lineage or an older serial
// unless -force, and keeps the stored serial growing.
func TestStatePushChecks(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	first := readFile(t, dir, "terraform.tfstate")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two")
	current, _ := readStateFile(t, dir)
	writeFile(t, dir, "old.tfstate", first)
	writeFile(t, dir, "other.tfstate", strings.Replace(first, current.Lineage, "00000000-0000-4000-8000-000000000000", 1))

	if r := rig(t, dir, "state", "push", "old.tfstate"); r.code != 1 || !strings.Contains(r.stderr, "over newer state with serial") {
		t.Errorf("pushing an older serial: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "push", "other.tfstate"); r.code != 1 || !strings.Contains(r.stderr, "unrelated state") {
		t.Errorf("pushing another lineage: exit %d\n%s", r.code, r.stderr)
	}
	if got, _ := readStateFile(t, dir); got.Serial != current.Serial {
		t.Fatal("a refused push changed the state")
	}
	mustRig(t, dir, "state", "push", "-force", "old.tfstate")
	got, _ := readStateFile(t, dir)
	if got.Serial != current.Serial+1 || got.Lineage != current.Lineage {
		t.Errorf("after a forced push: serial %d lineage %s, want serial %d", got.Serial, got.Lineage, current.Serial+1)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Errorf("plan after pushing the first state back: exit %d, want 0 (its value is the default)", r.code)
	}
	if r := mustRig(t, dir, "state", "pull"); r.stdout != readFile(t, dir, "terraform.tfstate") {
		t.Error("state pull does not print the stored state")
	}
}
