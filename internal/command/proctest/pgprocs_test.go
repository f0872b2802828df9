package proctest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/command/commandtest/cli"
)

const countConfig = `
variable "v" {}

resource "terraform_data" "r" {
  count = %d
  input = "${var.v}-${count.index}"
}
`

// runBin runs the rig binary in dir and returns what it did.
func runBin(t *testing.T, bin, dir string, args ...string) commandtest.Result {
	t.Helper()
	r, err := commandtest.Exec(exec.Command(bin, append([]string{"-chdir=" + dir}, args...)...))
	if err != nil {
		t.Errorf("running rig: %v", err) // called from several goroutines: no t.Fatal
	}
	return r
}

// snapshot is one state write seen by the history trigger.
type snapshot struct {
	serial  uint64
	lineage string
	values  map[string]int // the applying process's value ("p3") → instances carrying it
}

// TestPGConcurrentApplyProcesses starts eight rig processes applying to one
// workspace at once, each with its own value for every instance. A trigger
// records every state written. All must succeed, one after the other: the
// writes form eight consecutive runs, each turning the previous run's
// complete result into its own (so none was lost), with the serial growing
// by exactly one at each write.
func TestPGConcurrentApplyProcesses(t *testing.T) {
	bin := commandtest.BuildRig(t)
	p := commandtest.NewPGTarget(t)
	const procs, instances = 8, 30
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": p.Block() + fmt.Sprintf(countConfig, instances)})
	cli.MustRun(t, dir, "init", "-no-color")

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.Conn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	s := pgx.Identifier{p.Schema}.Sanitize()
	if _, err := conn.Exec(ctx, `
		CREATE TABLE `+s+`.history (seq bigserial PRIMARY KEY, data text);
		CREATE FUNCTION `+s+`.record() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.data IS NOT NULL THEN INSERT INTO `+s+`.history (data) VALUES (NEW.data); END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER record AFTER INSERT OR UPDATE ON `+s+`.states FOR EACH ROW EXECUTE FUNCTION `+s+`.record();`); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	results := make([]commandtest.Result, procs)
	for i := range procs {
		wg.Go(func() {
			results[i] = runBin(t, bin, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-lock-timeout=120s", fmt.Sprintf("-var=v=p%d", i))
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.Code != 0 {
			t.Fatalf("process %d: exit %d\n%s", i, r.Code, r.Stderr)
		}
	}

	rows, err := conn.Query(ctx, `SELECT data FROM `+s+`.history ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	datas, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var history []snapshot
	for _, d := range datas {
		var sf commandtest.StateFile
		if err := json.Unmarshal([]byte(d), &sf); err != nil {
			t.Fatal(err)
		}
		snap := snapshot{serial: sf.Serial, lineage: sf.Lineage, values: map[string]int{}}
		for _, r := range sf.Resources {
			for _, inst := range r.Instances {
				var attrs struct {
					Input struct {
						Value string `json:"value"`
					} `json:"input"`
				}
				if err := json.Unmarshal(inst.Attributes, &attrs); err != nil {
					t.Fatal(err)
				}
				v, _, _ := strings.Cut(attrs.Input.Value, "-")
				snap.values[v]++
			}
		}
		history = append(history, snap)
	}

	complete := func(s snapshot, v string) bool { return s.values[v] == instances && len(s.values) == 1 }
	prev, runs, seen := "", 0, map[string]bool{}
	cur := ""
	for i, snap := range history {
		if i > 0 && (snap.serial != history[i-1].serial+1 || snap.lineage != history[0].lineage) {
			t.Fatalf("write %d: serial %d lineage %s after serial %d lineage %s", i, snap.serial, snap.lineage, history[i-1].serial, history[0].lineage)
		}
		for v := range snap.values {
			switch {
			case v == prev || v == cur:
			case cur == "":
				cur = v
			default:
				t.Fatalf("write %d mixes %q with %q and %q: two applies interleaved", i, v, prev, cur)
			}
		}
		if cur != "" && complete(snap, cur) {
			if seen[cur] {
				t.Fatalf("value %s applied twice", cur)
			}
			seen[cur] = true
			prev, cur, runs = cur, "", runs+1
		}
	}
	if runs != procs || cur != "" {
		t.Fatalf("%d complete consecutive applies in %d writes (unfinished %q), want %d", runs, len(history), cur, procs)
	}
	final := p.State(t, "default")
	if final.Serial != history[len(history)-1].serial {
		t.Errorf("final serial %d, last written %d", final.Serial, history[len(history)-1].serial)
	}
	t.Logf("%d processes, %d state writes, serials %d..%d", procs, len(history), history[0].serial, final.Serial)
}

// TestPGKilledProcessReleasesLock: a rig apply waiting at its confirmation
// prompt holds the lock (another apply reports it, naming the operation);
// once that process is killed, another apply proceeds.
func TestPGKilledProcessReleasesLock(t *testing.T) {
	bin := commandtest.BuildRig(t)
	p := commandtest.NewPGTarget(t)
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": p.Block() + fmt.Sprintf(countConfig, 3)})
	cli.MustRun(t, dir, "init", "-no-color")
	cli.MustRun(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=v=a")

	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-no-color", "-var=v=b")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	prompted := make(chan error, 1)
	go func() {
		r := bufio.NewReader(stdout)
		var seen strings.Builder
		buf := make([]byte, 256)
		for {
			n, err := r.Read(buf)
			seen.Write(buf[:n])
			if strings.Contains(seen.String(), "Enter a value:") {
				prompted <- nil
				_, _ = io.Copy(io.Discard, r)
				return
			}
			if err != nil {
				prompted <- fmt.Errorf("no prompt: %v\n%s", err, seen.String())
				return
			}
		}
	}()
	select {
	case err := <-prompted:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the apply never asked for confirmation")
	}

	r := cli.Run(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=v=c")
	if r.Code != 1 || !strings.Contains(r.Stderr, "Error acquiring the state lock") || !strings.Contains(r.Stderr, "OperationTypeApply") {
		t.Fatalf("apply while another holds the lock: exit %d\n%s", r.Code, r.Stderr)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	cli.MustRun(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=v=c", "-lock-timeout=30s")
	sf := p.State(t, "default")
	for _, inst := range sf.Resources[0].Instances {
		if !bytes.Contains(inst.Attributes, []byte(`"value": "c-`)) {
			t.Errorf("instance not applied by the last apply: %s", inst.Attributes)
		}
	}
}
