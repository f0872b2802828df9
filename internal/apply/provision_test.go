package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/provisioner"
	"github.com/rig-iac/rig/internal/state"
)

// fakeProvisioner stands for local-exec: it records each command it is
// given with the number of provider applies started before it, and fails
// the commands that start with "fail".
type fakeProvisioner struct {
	prov *providertest.Provider
	mu   sync.Mutex
	runs []provisionRun
}

type provisionRun struct {
	command string
	after   int // provider applies started before it ran
}

func (f *fakeProvisioner) Run(_ context.Context, req provisioner.Request, output func(string)) error {
	cmd := req.Config.GetAttr("command").AsString()
	f.mu.Lock()
	f.runs = append(f.runs, provisionRun{command: cmd, after: len(f.prov.Ops())})
	f.mu.Unlock()
	output("ran " + cmd)
	if strings.HasPrefix(cmd, "fail") {
		return errors.New("exit status 1")
	}
	return nil
}

// newProvisionScenario is a scenario whose applies run f for local-exec,
// one operation at a time.
func newProvisionScenario(t *testing.T) (*scenario, *fakeProvisioner) {
	s := newScenario(t)
	f := &fakeProvisioner{prov: s.prov}
	s.provisioners = map[string]Provisioner{provisioner.LocalExec: f}
	s.parallelism = 1
	return s, f
}

// timeline applies src (planned in mode) and returns what ran, provider
// applies and provisioner commands in order: "create a; run echo a; …".
func (s *scenario) timeline(f *fakeProvisioner, src string, mode plan.Mode) (string, *plan.Plan, error) {
	s.t.Helper()
	before := len(s.prov.Ops())
	f.mu.Lock()
	firstRun := len(f.runs)
	f.mu.Unlock()
	p, ops, ds := s.step(src, mode)
	f.mu.Lock()
	runs := append([]provisionRun(nil), f.runs[firstRun:]...)
	f.mu.Unlock()
	var parts []string
	for i := 0; i <= len(ops); i++ {
		for _, r := range runs {
			if r.after-before == i {
				parts = append(parts, "run "+r.command)
			}
		}
		if i < len(ops) {
			parts = append(parts, ops[i].String())
		}
	}
	return strings.Join(parts, "; "), p, ds.Err()
}

func (s *scenario) object(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) *state.Object {
	return s.state.Object(addrs.ObjectAddr{Instance: addr, Deposed: dk})
}

func checkTimeline(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("ran\n  %s\nwant\n  %s", got, want)
	}
}

// TestCreateProvisionersRunAfterCreateInOrder: a new object's create-time
// provisioners run after its create, in the order written, with self and
// count.index, before its dependents start; destroy-time ones do not run;
// an update runs none.
func TestCreateProvisionersRunAfterCreateInOrder(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := func(value string) string {
		return fmt.Sprintf(`
resource "test_thing" "a" {
  count = 1
  key   = "a"
  value = %q
  provisioner "local-exec" {
    command = "first ${self.key} ${self.value} ${count.index} ${self.id}"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "bye ${self.key}"
  }
  provisioner "local-exec" {
    command = "second ${self.key}"
  }
}
resource "test_thing" "b" {
  key = "b"
  ref = [test_thing.a[0].id]
}
`, value)
	}
	got, _, err := s.timeline(f, src("1"), plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "create a; run first a 1 0 id-1; run second a; create b")
	if obj := s.object(thingAt("a", addrs.IntKey(0)), addrs.NotDeposed); obj.Status != state.Ready {
		t.Errorf("a is %v, want ready", obj.Status)
	}

	got, _, err = s.timeline(f, src("2"), plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "update a")
}

func thingAt(name string, k addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: name}.Instance(k).Absolute(addrs.RootModule)
}

// TestFailedCreateProvisionerTaintsObject: a's provisioner fails: a is
// recorded tainted, the provisioners after it do not run, b (which depends
// on a) does not start, c (independent) is created, the error is a
// diagnostic with the failure, and the next plan replaces a.
func TestFailedCreateProvisionerTaintsObject(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := `
resource "test_thing" "a" {
  key = "a"
  provisioner "local-exec" {
    command = "fail ${self.key}"
  }
  provisioner "local-exec" {
    command = "never"
  }
}
resource "test_thing" "b" {
  key = "b"
  ref = [test_thing.a.id]
}
resource "test_thing" "c" {
  key        = "c"
  depends_on = [test_thing.b]
}
resource "test_thing" "d" {
  key = "d"
}
`
	got, _, err := s.timeline(f, src, plan.NormalMode)
	if err == nil || !strings.Contains(err.Error(), "local-exec provisioner error") || !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("apply error = %v, want a local-exec provisioner error with the exit status", err)
	}
	checkTimeline(t, got, "create a; run fail a; create d")
	if obj := s.object(thing("a"), addrs.NotDeposed); obj == nil || obj.Status != state.Tainted {
		t.Fatalf("a = %+v, want a tainted object", obj)
	}
	p, ds := s.plan(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if action, reason := s.action(thing("a"), p); action != plan.DeleteThenCreate || reason != plan.ReplaceBecauseTainted {
		t.Errorf("next plan: a %v (%v), want replaced because tainted", action, reason)
	}
}

// TestOnFailureContinueGoesOn: a provisioner with on_failure = continue
// fails without failing its object: the next provisioner runs, the object
// is ready, its dependents run, and there is no error.
func TestOnFailureContinueGoesOn(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := `
resource "test_thing" "a" {
  key = "a"
  provisioner "local-exec" {
    command    = "fail but continue"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "next"
  }
}
resource "test_thing" "b" {
  key = "b"
  ref = [test_thing.a.id]
}
`
	got, _, err := s.timeline(f, src, plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "create a; run fail but continue; run next; create b")
	if obj := s.object(thing("a"), addrs.NotDeposed); obj.Status != state.Ready {
		t.Errorf("a is %v, want ready", obj.Status)
	}
}

const destroyProvisioned = `
resource "test_thing" "a" {
  for_each    = toset(["x"])
  key         = "a"
  replace_key = %q
  lifecycle {
    create_before_destroy = %t
  }
  provisioner "local-exec" {
    when    = destroy
    command = "%s ${self.key} ${self.replace_key} ${each.key}"
  }
}
resource "test_thing" "b" {
  key = "b"
  ref = [test_thing.a["x"].id]
}
`

func destroySrc(replaceKey string, cbd bool, command string) string {
	return fmt.Sprintf(destroyProvisioned, replaceKey, cbd, command)
}

// TestDestroyProvisionersRunBeforeDelete: destroy-time provisioners run
// before the delete, with self the object being deleted and each.key: in
// a delete-first replacement and in
// a destroy.
func TestDestroyProvisionersRunBeforeDelete(t *testing.T) {
	s, f := newProvisionScenario(t)
	if _, _, err := s.timeline(f, destroySrc("r1", false, "bye"), plan.NormalMode); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.timeline(f, destroySrc("r2", false, "bye"), plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "run bye a r1 x; delete a; create a; update b")

	got, _, err = s.timeline(f, destroySrc("r2", false, "bye"), plan.DestroyMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "delete b; run bye a r2 x; delete a")
}

// TestDestroyProvisionersDoNotRunForDeposedObjects: as the lifecycle
// documentation says, destroy-time provisioners do not run for the object
// a create_before_destroy replacement deposes; they still run when the
// resource is destroyed.
func TestDestroyProvisionersDoNotRunForDeposedObjects(t *testing.T) {
	s, f := newProvisionScenario(t)
	if _, _, err := s.timeline(f, destroySrc("r1", true, "bye"), plan.NormalMode); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.timeline(f, destroySrc("r2", true, "bye"), plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "create a; update b; delete a")
	if n := s.deposedCount(); n != 0 {
		t.Errorf("%d deposed objects left", n)
	}
	got, _, err = s.timeline(f, destroySrc("r2", true, "bye"), plan.DestroyMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "delete b; run bye a r2 x; delete a")
}

// TestFailedDestroyProvisionerKeepsObject: a failed destroy-time
// provisioner leaves the object in state, not tainted, and its delete does
// not happen; the next destroy tries again.
func TestFailedDestroyProvisionerKeepsObject(t *testing.T) {
	s, f := newProvisionScenario(t)
	if _, _, err := s.timeline(f, destroySrc("r1", false, "fail"), plan.NormalMode); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.timeline(f, destroySrc("r1", false, "fail"), plan.DestroyMode)
	if err == nil || !strings.Contains(err.Error(), "local-exec provisioner error") {
		t.Fatalf("destroy error = %v, want a local-exec provisioner error", err)
	}
	checkTimeline(t, got, "delete b; run fail a r1 x")
	a := thingAt("a", addrs.StringKey("x"))
	if obj := s.object(a, addrs.NotDeposed); obj == nil || obj.Status != state.Ready {
		t.Fatalf("a = %+v, want it kept, ready", obj)
	}
	got, _, err = s.timeline(f, destroySrc("r1", false, "now"), plan.DestroyMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "run now a r1 x; delete a")
}

// TestDestroyProvisionersSkipped: a tainted object and the object of a
// resource whose block is gone are deleted without destroy-time
// provisioners, as OpenTofu does.
func TestDestroyProvisionersSkipped(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := `
resource "test_thing" "a" {
  key = "a"
  provisioner "local-exec" {
    command = "fail"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "bye ${self.key}"
  }
}
resource "test_thing" "c" {
  key = "c"
  provisioner "local-exec" {
    when    = destroy
    command = "bye ${self.key}"
  }
}
`
	if _, _, err := s.timeline(f, src, plan.NormalMode); err == nil {
		t.Fatal("the create-time provisioner of a did not fail")
	}
	got, _, err := s.timeline(f, src, plan.DestroyMode)
	if err != nil {
		t.Fatal(err)
	}
	if got != "delete a; run bye c; delete c" && got != "run bye c; delete c; delete a" {
		t.Errorf("destroy ran %s: want the tainted a deleted without its provisioner", got)
	}

	s, f = newProvisionScenario(t)
	if _, _, err := s.timeline(f, strings.Replace(src, `command = "fail"`, `command = "ok"`, 1), plan.NormalMode); err != nil {
		t.Fatal(err)
	}
	got, _, err = s.timeline(f, `resource "test_thing" "c" {
  key = "c"
}`, plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "delete a")
}

// TestCBDReplacementFailedProvisionerKeepsNewObject: when the new object
// of a create_before_destroy replacement fails its create-time
// provisioner, it stays current and tainted and the old object stays
// deposed; the next apply replaces the new one and deletes the old.
func TestCBDReplacementFailedProvisionerKeepsNewObject(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := func(replaceKey, command string) string {
		return fmt.Sprintf(`
resource "test_thing" "a" {
  key         = "a"
  replace_key = %q
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    command = %q
  }
}
`, replaceKey, command)
	}
	if _, _, err := s.timeline(f, src("r1", "ok"), plan.NormalMode); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.timeline(f, src("r2", "fail"), plan.NormalMode)
	if err == nil {
		t.Fatal("no error")
	}
	checkTimeline(t, got, "create a; run fail")
	if obj := s.object(thing("a"), addrs.NotDeposed); obj == nil || obj.Status != state.Tainted {
		t.Fatalf("current a = %+v, want the new object, tainted", obj)
	}
	if n := s.deposedCount(); n != 1 {
		t.Fatalf("%d deposed objects, want the old one", n)
	}
	got, _, err = s.timeline(f, src("r2", "ok"), plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	if got != "create a; run ok; delete a; delete a" {
		t.Errorf("next apply ran %s", got)
	}
	if n := s.deposedCount(); n != 0 {
		t.Errorf("%d deposed objects left", n)
	}
	s.checkNoLeaks()
}

// TestProvisionersInChildModule: provisioners of a resource in a module
// instance are evaluated in its scope: its variables, path.module, each.
func TestProvisionersInChildModule(t *testing.T) {
	s, f := newProvisionScenario(t)
	src := `-- main.tf --
module "m" {
  source   = "./m"
  for_each = toset(["one"])
  name     = each.key
}
-- m/main.tf --
variable "name" {}
resource "test_thing" "a" {
  for_each = toset([var.name])
  key      = "a-${each.key}"
  provisioner "local-exec" {
    command = "hello ${var.name} ${each.value} ${basename(path.module)} ${self.key}"
  }
}
`
	got, _, err := s.timeline(f, src, plan.NormalMode)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, got, "create a-one; run hello one one m a-one")
}

// recordingHooks records the provisioner events of an apply.
type recordingHooks struct {
	NoHooks
	mu     sync.Mutex
	events []string
}

func (h *recordingHooks) add(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

func (h *recordingHooks) PreProvision(op Operation, typ string) { h.add("start " + typ) }
func (h *recordingHooks) ProvisionOutput(op Operation, typ, line string) {
	h.add("output " + line)
}
func (h *recordingHooks) PostProvision(op Operation, typ string, err error) {
	h.add(fmt.Sprintf("end %v", err))
}

// TestProvisionerOutputSuppressedWhenSensitive: the hooks get each line of
// output, or the notice in its place when the provisioner's configuration
// holds a sensitive value.
func TestProvisionerOutputSuppressedWhenSensitive(t *testing.T) {
	s, _ := newProvisionScenario(t)
	h := &recordingHooks{}
	s.hooks = h
	src := `
variable "secret" {
  default   = "s3cret"
  sensitive = true
}
resource "test_thing" "a" {
  key = "a"
  provisioner "local-exec" {
    command = "echo ${self.key}"
  }
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}
`
	s.mustStep(src, plan.NormalMode)
	want := "start local-exec, output ran echo a, end <nil>, start local-exec, output (output suppressed due to sensitive value in config), end <nil>"
	if got := strings.Join(h.events, ", "); got != want {
		t.Errorf("hooks saw\n  %s\nwant\n  %s", got, want)
	}
}
