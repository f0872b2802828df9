package command

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/state/statemgr"
	"github.com/rig-iac/rig/internal/workdir"
)

// TestStatePullPushWithJournal checks that the objects a crashed run left
// in the state journal are neither hidden by state pull nor lost by state
// push: pull prints them with the serial the fold will write, and push
// folds them in first, so a state pulled before the crash is refused as
// older instead of being written over them.
func TestStatePullPushWithJournal(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "r" {
  count = 2
  input = "value-${count.index}"
}
`})
	if r := rig(t, dir, "apply", "-auto-approve", "-target=terraform_data.r[0]"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	stale, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	crashedRunRecords(t, dir, "terraform_data.r[0]", "terraform_data.r[1]")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); err != nil {
		t.Fatalf("no journal: %v", err)
	}

	r := rig(t, dir, "state", "pull")
	if r.code != 0 || !strings.Contains(r.stderr, "State includes operations from an interrupted run") {
		t.Fatalf("state pull: exit %d\n%s", r.code, r.stderr)
	}
	pulled := r.stdout
	if got := pulledInstances(t, pulled); got != 2 {
		t.Fatalf("state pull printed %d instances, want the stored one and the journal's\n%s", got, pulled)
	}
	if got, want := serialOf(t, pulled), serialOf(t, string(stale))+1; got != want {
		t.Errorf("pulled serial %d, want %d (what the fold writes)", got, want)
	}

	// A state pulled before the crash is older than the folded state.
	stalePath := filepath.Join(t.TempDir(), "stale.tfstate")
	if err := os.WriteFile(stalePath, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	r = rig(t, dir, "state", "push", stalePath)
	if r.code != 1 || !strings.Contains(r.stderr, "cannot import state with serial") {
		t.Fatalf("push of the stale state: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); !os.IsNotExist(err) {
		t.Errorf("the journal is still there after push folded it: %v", err)
	}
	if r := rig(t, dir, "state", "list"); !strings.Contains(r.stdout, "terraform_data.r[1]") {
		t.Fatalf("the journal's object was lost by push:\n%s", r.stdout)
	}

	// The state pulled with the journal's objects is written.
	pulledPath := filepath.Join(t.TempDir(), "pulled.tfstate")
	if err := os.WriteFile(pulledPath, []byte(pulled), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := rig(t, dir, "state", "push", pulledPath); r.code != 0 {
		t.Fatalf("push of the pulled state: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "list"); !strings.Contains(r.stdout, "terraform_data.r[1]") {
		t.Fatalf("state list after pushing the pulled state:\n%s", r.stdout)
	}
	// The copy recorded at r[1] holds r[0]'s input: it is updated, not
	// created again.
	if r := rig(t, dir, "plan", "-no-color"); r.code != 0 || strings.Contains(r.stdout, "will be created") {
		t.Fatalf("plan after push: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// crashedRunRecords leaves in dir's state journal what a run that died
// before writing its state would: the object at to, a copy of the one at
// from, recorded but not folded into the state file.
func crashedRunRecords(t *testing.T, dir, from, to string) {
	t.Helper()
	ctx := context.Background()
	store, err := local.New(dir, local.Options{}).Store(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	s, ds := workdir.ReadState(ctx, store)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	src, err := addrs.ParseAbsResourceInstanceStr(from)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := addrs.ParseAbsResourceInstanceStr(to)
	if err != nil {
		t.Fatal(err)
	}
	w := statemgr.NewWriter(store, s)
	obj := *s.Object(addrs.ObjectAddr{Instance: src})
	at := addrs.ObjectAddr{Instance: dst}
	s.SetObject(at, &obj, s.ObjectProvider(src))
	if err := w.WriteChanges(ctx, s, []addrs.ObjectAddr{at}, false); err != nil {
		t.Fatal(err)
	}
}

func pulledInstances(t *testing.T, doc string) int {
	t.Helper()
	var st struct {
		Resources []struct {
			Instances []json.RawMessage `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(doc), &st); err != nil {
		t.Fatalf("not a state: %v\n%s", err, doc)
	}
	n := 0
	for _, r := range st.Resources {
		n += len(r.Instances)
	}
	return n
}

func serialOf(t *testing.T, doc string) int {
	t.Helper()
	var st struct {
		Serial int `json:"serial"`
	}
	if err := json.Unmarshal([]byte(doc), &st); err != nil {
		t.Fatalf("not a state: %v", err)
	}
	return st.Serial
}
