//go:build linux

package killtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// The kill test: rig, as a process, applies about 200 test_file objects,
// whose ids the provider draws at random and which live as files in a
// directory (the "world"), so an object rig lost track of stays visible.
// Each iteration changes the configuration so that the apply creates,
// updates in place, replaces (delete-first and create_before_destroy) or
// destroys objects, SIGKILLs rig at a random moment of it (one time in
// three, the apply recovering from that is killed too), then runs rig again
// (plan, then apply, which recovers the journal) and checks:
//
//   - no provider process survives the killed rig;
//   - a following plan has no changes (-detailed-exitcode exits 0);
//   - no phantom: every object in the state exists in the world, with the
//     content the state records;
//   - no leak: every object in the world is in the state. Objects whose
//     create was under way when rig was killed (created during the killed
//     run, never reported complete by it: the provider made them but rig
//     never learned their id) are listed by the plan after the kill among
//     the "Creates cut off by a crash", with the content they were planned
//     with (rig.hcl's record_create_intents), and `rig recover` finds them
//     through the provider's list and imports them (recoverCutOff); every
//     object it imports must be one of those, and there can be no more of
//     them than creates the kill interrupted.
//
// The create_before_destroy replacements pass a health gate (rig.hcl), in
// batches, so kills also land while new objects wait at their gate.
//
// RIG_TEST_KILL_ITERATIONS sets the number of iterations (10 by default, 4
// for PostgreSQL); RIG_TEST_KILL_SEED replays the choices of the run a
// failure logged (configurations, -parallelism, the output line to kill
// after and the pause), not the timing of the operations.

// TestKillAtRandomMoments is the kill test with the local backend.
func TestKillAtRandomMoments(t *testing.T) {
	killAtRandomMoments(t, "", 10)
}

// TestPGKillAtRandomMoments is the kill test with the state in PostgreSQL.
func TestPGKillAtRandomMoments(t *testing.T) {
	p := commandtest.NewPGTarget(t)
	killAtRandomMoments(t, p.Block(), 4)
}

// killConfig has three chained groups of var.n objects: plain is updated in
// place when var.content changes; cbd (create_before_destroy) and ordered
// (delete-first) are replaced when var.key changes, cbd through the health
// gate killSettings sets, 10 instances at a time: a kill may land while a
// new object waits at its gate (recorded tainted, the old one deposed).
const killConfig = `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
variable "n" { type = number }
variable "content" { type = string }
variable "key" { type = string }

resource "test_file" "plain" {
  count   = var.n
  content = "${var.content}-${count.index}"
}
resource "test_file" "cbd" {
  count   = var.n
  key     = var.key
  content = test_file.plain[count.index].id
  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.content == test_file.plain[count.index].id
      error_message = "${self.id} does not hold its plain object's id."
    }
  }
}
resource "test_file" "ordered" {
  count   = var.n
  key     = var.key
  content = test_file.cbd[count.index].id
}
`

// killSettings records each create's intent before its call, so the run
// after a kill lists the creates it cut off, and gates cbd's
// replacements: each new object is read again and its postcondition
// checked before anything moves onto it, in batches.
const killSettings = `
record_create_intents = true

health_gate "test_file.cbd" {
  interval = "5ms"
  timeout  = "1m"
  batch    = 10
}
`

// killEnv is one kill test's rig, provider, world and working directory.
type killEnv struct {
	t        *testing.T
	bin      string
	provider string
	world    string
	dir      string
	env      []string
}

func killAtRandomMoments(t *testing.T, backendBlock string, defaultIterations int) {
	iterations := defaultIterations
	if s := os.Getenv("RIG_TEST_KILL_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("RIG_TEST_KILL_ITERATIONS=%q: want a positive number", s)
		}
		iterations = n
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("RIG_TEST_KILL_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RIG_TEST_KILL_SEED=%q: want an unsigned number", s)
		}
		seed = n
	}
	t.Logf("RIG_TEST_KILL_SEED=%d RIG_TEST_KILL_ITERATIONS=%d", seed, iterations)
	rnd := rand.New(rand.NewPCG(seed, seed))

	e := newKillEnv(t, backendBlock)
	if backendBlock != "" {
		e.mustRun("init", "-no-color", "-input=false")
	}
	phases := []string{"create", "update", "replace", "destroy"}
	var killed, strays, gated, listed int
	content, key := "c", "k"
	for i := range iterations {
		// Every phase changes the number of objects too, so each apply
		// also creates or destroys some.
		phase := phases[i%len(phases)]
		switch phase {
		case "update":
			content = fmt.Sprintf("c%d", i)
		case "replace":
			key = fmt.Sprintf("k%d", i)
		}
		commandtest.WriteFile(t, e.dir, "terraform.tfvars", fmt.Sprintf("n = %d\ncontent = %q\nkey = %q\n", 50+rnd.IntN(21), content, key))
		var mode []string
		if phase == "destroy" {
			mode = []string{"-destroy"}
		}
		res := e.iteration(rnd, i, phase, mode)
		if res.killed {
			killed++
		}
		strays += res.orphaned
		gated += res.atGate
		listed += res.listed
	}
	t.Logf("%d iterations, rig killed in %d, %d replacements left waiting at their health gate by a kill, all finished; %d creates listed as cut off, %d objects orphaned by them, all found and imported by rig recover",
		iterations, killed, gated, listed, strays)
	if killed == 0 {
		t.Fatal("no apply was killed: the test checked nothing")
	}
}

func newKillEnv(t *testing.T, backendBlock string) *killEnv {
	e := &killEnv{t: t, bin: commandtest.BuildRig(t), world: t.TempDir()}
	e.provider = commandtest.TestProvider(t)
	pluginDir := filepath.Dir(e.provider)
	cliConfig := filepath.Join(t.TempDir(), "rig.tfrc")
	commandtest.WriteFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  dev_overrides {
    "rig/test" = "`+pluginDir+`"
  }
}
`)
	e.dir = commandtest.WorkDir(t, map[string]string{"main.tf": backendBlock + killConfig, "rig.hcl": killSettings})
	e.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "RIG_TESTPROVIDER_WORLD="+e.world, "RIG_TESTPROVIDER_DELAY_MS=2")
	return e
}

// run runs the rig binary in the working directory.
func (e *killEnv) run(args ...string) commandtest.Result {
	return commandtest.RunBinary(e.t, e.bin, e.dir, e.env, args...)
}

func (e *killEnv) mustRun(args ...string) commandtest.Result {
	e.t.Helper()
	r := e.run(args...)
	if r.Code != 0 {
		e.t.Fatalf("rig %v: exit %d\n%s%s", args, r.Code, r.Stdout, r.Stderr)
	}
	return r
}

var (
	planSummary = regexp.MustCompile(`Plan: (\d+) to add, (\d+) to change, (\d+) to destroy`)
	// applyEvent matches the lines an apply prints as operations start and end.
	applyEvent = regexp.MustCompile(`^test_file\.\S+( \(deposed object \w+\))?: (Creating\.\.\.|Modifying\.\.\.|Destroying\.\.\.|Creation complete|Modifications complete|Destruction complete)`)
	// createStart and createdID match a create starting and one rig
	// reports complete, with the new id.
	createStart = regexp.MustCompile(`^(test_file\.\S+): Creating\.\.\.`)
	createdID   = regexp.MustCompile(`^(test_file\.\S+): Creation complete after \S+ \[id=([0-9a-f]+)\]`)
)

// killedRun is what one apply that rig may have been killed in did.
type killedRun struct {
	killed bool
	// reported holds the ids of the creates rig reported complete;
	// underWay counts those it started and did not.
	reported map[string]bool
	underWay int
}

// planOps returns the number of operations the plan in mode would carry out.
func (e *killEnv) planOps(mode []string) int {
	r := e.mustRun(append([]string{"plan", "-no-color", "-input=false"}, mode...)...)
	ops := 0
	if m := planSummary.FindStringSubmatch(r.Stdout); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.Atoi(s)
			ops += n
		}
	}
	return ops
}

// applyAndKill runs an apply of ops operations in mode and SIGKILLs it at
// a random moment, then checks that no provider process outlived it.
func (e *killEnv) applyAndKill(rnd *rand.Rand, what string, ops int, mode []string) killedRun {
	t := e.t
	parallelism := 1 + rnd.IntN(10)
	// Each operation prints a start and an end line: kill after a random
	// one of them, and a random moment after it.
	killAfter := rnd.IntN(2*ops + 1)
	pause := time.Duration(rnd.IntN(3000)) * time.Microsecond
	args := append([]string{"-chdir=" + e.dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=" + strconv.Itoa(parallelism)}, mode...)
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	res := killedRun{reported: map[string]bool{}}
	creating := map[string]bool{}
	var children []int
	events := 0
	sc := bufio.NewScanner(stdout)
	// Read to the end: the lines rig printed before it died count too.
	for sc.Scan() {
		line := sc.Text()
		if m := createStart.FindStringSubmatch(line); m != nil {
			creating[m[1]] = true
		}
		if m := createdID.FindStringSubmatch(line); m != nil {
			delete(creating, m[1])
			res.reported[m[2]] = true
		}
		if !applyEvent.MatchString(line) || res.killed {
			continue
		}
		if events++; events > killAfter {
			time.Sleep(pause)
			children = childrenOf(cmd.Process.Pid)
			res.killed = cmd.Process.Signal(syscall.SIGKILL) == nil
		}
	}
	err = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	res.killed = res.killed && ws.Signaled()
	if !res.killed && err != nil {
		t.Fatalf("%s: the apply failed: %v\n%s", what, err, stderr.String())
	}
	res.underWay = len(creating)
	t.Logf("%s: %d operations, -parallelism=%d, killed=%v after %d events (+%v), %d creates reported complete, %d under way",
		what, ops, parallelism, res.killed, events, pause, len(res.reported), res.underWay)
	if res.killed {
		e.checkNoProviderLeft(children)
	}
	return res
}

// iterationResult is what one iteration saw.
type iterationResult struct {
	killed bool
	// orphaned counts the objects the kills orphaned, listed the creates
	// the plan after them listed as cut off, atGate the replacements they
	// left waiting at their health gate.
	orphaned, listed, atGate int
}

// iteration applies the configuration as it stands, killing rig at a
// random moment (and, one time in three, the apply recovering from that
// too), recovers and checks the world against the state.
func (e *killEnv) iteration(rnd *rand.Rand, i int, phase string, mode []string) iterationResult {
	t := e.t
	before := e.worldObjects()
	what := fmt.Sprintf("iteration %d (%s)", i, phase)
	run := e.applyAndKill(rnd, what, e.planOps(mode), mode)
	// madeByKilled holds the objects that exist after a kill.
	madeByKilled := e.worldObjects()
	if run.killed && rnd.IntN(3) == 0 {
		again := e.applyAndKill(rnd, what+", recovery", e.planOps(mode), mode)
		for id := range again.reported {
			run.reported[id] = true
		}
		run.underWay += again.underWay
		for id, c := range e.worldObjects() {
			madeByKilled[id] = c
		}
	}

	// Recover: plan (which folds the journal in, and lists the creates
	// the kill cut off), rig recover, apply, plan again.
	recovery := e.mustRun(append([]string{"plan", "-no-color", "-input=false"}, mode...)...)
	cutOff := recovery.Stdout + recovery.Stderr
	atGate := e.atGate(i)
	recovered, recoverLog := e.recoverCutOff(what)
	e.mustRun(append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, mode...)...)
	if r := e.run(append([]string{"plan", "-detailed-exitcode", "-no-color", "-input=false"}, mode...)...); r.Code != 0 {
		t.Fatalf("%s: the plan after recovery did not converge: exit %d\n%s%s", what, r.Code, r.Stdout, r.Stderr)
	}

	inState := e.stateObjects(i)
	world := e.worldObjects()
	for id, content := range inState {
		got, ok := world[id]
		switch {
		case !ok:
			t.Errorf("%s: phantom: test_file %s is in the state but not in the world", what, id)
		case got != content:
			t.Errorf("%s: test_file %s has content %q in the world, %q in the state", what, id, got, content)
		}
	}
	for id := range world {
		if _, ok := inState[id]; !ok {
			_, old := before[id]
			_, byKilled := madeByKilled[id]
			t.Errorf("%s: leaked: test_file %s (content %q) is in the world but not in the state after rig recover (existed before: %v, created by a killed run: %v, reported complete: %v)\nplan after the kill:\n%s\n%s",
				what, id, world[id], old, byKilled && !old, run.reported[id], cutOff, recoverLog)
		}
	}
	var orphans []string
	for id := range recovered {
		_, old := before[id]
		content, byKilled := madeByKilled[id]
		if old || !byKilled || run.reported[id] {
			t.Errorf("%s: rig recover imported test_file %s, which no create cut off by the kill made (existed before: %v, created by a killed run: %v, reported complete: %v)",
				what, id, old, byKilled && !old, run.reported[id])
			continue
		}
		orphans = append(orphans, id)
		// Every create under way at the kill is listed, with the values
		// it was planned with: the orphan is found by its content. One
		// whose content is empty was cut off between the provider making
		// the file and writing it (every content planned here is
		// non-empty): it is only counted among the listed creates below.
		if !strings.Contains(cutOff, "Creates cut off by a crash") ||
			content != "" && !strings.Contains(cutOff, fmt.Sprintf("content = %q", content)) {
			t.Errorf("%s: the create of orphan %s (content %q) is not listed among the creates cut off by the kill:\n%s", what, id, content, cutOff)
		}
	}
	listed := strings.Count(cutOff, " (provider[\"")
	if len(orphans) > listed {
		t.Errorf("%s: %d objects orphaned by the kill, %d creates listed as cut off:\n%s", what, len(orphans), listed, cutOff)
	}
	if len(orphans) > run.underWay {
		t.Errorf("%s: %d objects orphaned by the kill, more than the %d creates it interrupted", what, len(orphans), run.underWay)
	}
	if t.Failed() {
		t.FailNow()
	}
	slices.Sort(orphans)
	if len(orphans) > 0 || listed > 0 || atGate > 0 {
		t.Logf("%s: %d creates listed as cut off; %d replacements left at their health gate; orphaned by creates under way at the kill, found and imported by rig recover: %v", what, listed, atGate, orphans)
	}
	if len(mode) > 0 && len(inState) != 0 {
		t.Fatalf("%s: %d objects in the state after a destroy", what, len(inState))
	}
	return iterationResult{killed: run.killed, orphaned: len(orphans), listed: listed, atGate: atGate}
}

// worldObjects returns the test_file objects in the world: id to content.
func (e *killEnv) worldObjects() map[string]string {
	entries, err := os.ReadDir(e.world)
	if err != nil {
		e.t.Fatal(err)
	}
	objs := make(map[string]string, len(entries))
	for _, ent := range entries {
		b, err := os.ReadFile(filepath.Join(e.world, ent.Name()))
		if err != nil {
			e.t.Fatal(err)
		}
		objs[ent.Name()] = string(b)
	}
	return objs
}

// stateObjects returns every test_file object in the state, current and
// deposed: id to content.
func (e *killEnv) stateObjects(i int) map[string]string {
	r := e.mustRun("state", "pull")
	var sf commandtest.StateFile
	if err := json.Unmarshal([]byte(r.Stdout), &sf); err != nil {
		e.t.Fatalf("iteration %d: state pull: %v", i, err)
	}
	objs := map[string]string{}
	for _, res := range sf.Resources {
		if res.Type != "test_file" {
			continue
		}
		for _, inst := range res.Instances {
			var attrs struct{ ID, Content string }
			if err := json.Unmarshal(inst.Attributes, &attrs); err != nil {
				e.t.Fatalf("iteration %d: %s.%s: %v", i, res.Type, res.Name, err)
			}
			if _, dup := objs[attrs.ID]; dup {
				e.t.Errorf("iteration %d: test_file %s is in the state twice", i, attrs.ID)
			}
			objs[attrs.ID] = attrs.Content
		}
	}
	return objs
}

// checkNoProviderLeft checks that no process runs the provider binary and
// that none of the killed rig's children survives it.
func (e *killEnv) checkNoProviderLeft(children []int) {
	// The kernel signals the provider as rig dies; give it a moment to go.
	commandtest.AwaitGone(e.t, 10*time.Second, "processes", func() []int {
		left := commandtest.ProcessesOf(e.provider)
		for _, pid := range children {
			if commandtest.Alive(pid) && !slices.Contains(left, pid) {
				left = append(left, pid)
			}
		}
		return left
	})
}

// childrenOf returns the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, ent := range entries {
		child, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if ppid, ok := procParent(child); ok && ppid == pid {
			pids = append(pids, child)
		}
	}
	return pids
}

// procParent returns a process's parent from /proc/PID/stat.
func procParent(pid int) (ppid int, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, err == nil
}
