package ui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/plan"
)

// applySequence drives hooks through an apply: a create, an update with
// progress, a create-before-destroy replacement ending in a deposed delete,
// and a failed create.
func applySequence(h apply.Hooks) {
	a := apply.Operation{Addr: managed("terraform_data", "a", addrs.NoKey), Action: plan.Create}
	h.PreApply(a)
	h.PostApply(a, apply.Result{NewIDValue: "a-id", Elapsed: 400 * time.Millisecond})

	b := apply.Operation{Addr: managed("terraform_data", "b", addrs.IntKey(0)), Action: plan.Update, IDValue: "b-id"}
	h.PreApply(b)
	h.Progress(b, 10*time.Second)
	h.PostApply(b, apply.Result{NewIDValue: "b-id", Elapsed: 12300 * time.Millisecond})

	cNew := apply.Operation{Addr: managed("terraform_data", "c", addrs.StringKey("x")), Action: plan.Create, Replacing: plan.CreateThenDelete, IDValue: "c-old"}
	h.PreApply(cNew)
	h.PostApply(cNew, apply.Result{NewIDValue: "c-new", Elapsed: time.Second})
	cOld := apply.Operation{Addr: cNew.Addr, Deposed: "1234abcd", Action: plan.Delete, Replacing: plan.CreateThenDelete, IDValue: "c-old"}
	h.PreApply(cOld)
	h.Progress(cOld, 20*time.Second)
	h.PostApply(cOld, apply.Result{Elapsed: 21 * time.Second})

	d := apply.Operation{Addr: managed("terraform_data", "d", addrs.NoKey), Action: plan.Create}
	h.PreApply(d)
	h.PostApply(d, apply.Result{Err: errors.New("boom"), Elapsed: 2 * time.Second})
}

func TestHumanHooks(t *testing.T) {
	var buf bytes.Buffer
	applySequence(NewHumanHooks(&buf, RenderOptions{}))
	counts := &CountHooks{}
	applySequence(counts)
	if err := RenderApplySummary(&buf, counts.Summary(OperationApply), RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := RenderApplySummary(&buf, ChangeSummary{Remove: 3, Operation: OperationDestroy}, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- color\n")
	h := NewHumanHooks(&buf, RenderOptions{Color: true})
	h.PreApply(apply.Operation{Addr: managed("terraform_data", "a", addrs.NoKey), Action: plan.Delete, IDValue: "a-id"})
	if err := RenderApplySummary(&buf, counts.Summary(OperationApply), RenderOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/hooks.golden", buf.Bytes())
}

// TestHooksConcurrent checks, under -race, that hooks may be called from
// many workers at once and never interleave lines.
func TestHooksConcurrent(t *testing.T) {
	var human, js bytes.Buffer
	jv := NewJSONView(&js)
	hooks := []apply.Hooks{NewHumanHooks(&human, RenderOptions{}), jv, &CountHooks{}}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op := apply.Operation{Addr: managed("terraform_data", "n", addrs.IntKey(i)), Action: plan.Create}
			for _, h := range hooks {
				h.PreApply(op)
				h.Progress(op, time.Second)
				h.PostApply(op, apply.Result{NewIDValue: fmt.Sprint(i)})
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(human.String(), "\n"); n != 150 {
		t.Errorf("human hooks wrote %d lines, want 150", n)
	}
	for _, line := range strings.Split(strings.TrimSpace(js.String()), "\n") {
		if !strings.HasPrefix(line, `{"@level":"info"`) || !strings.HasSuffix(line, "}") {
			t.Fatalf("interleaved JSON line: %q", line)
		}
	}
	if got := hooks[2].(*CountHooks).Summary(OperationApply); got.Add != 50 {
		t.Errorf("counted %d added, want 50", got.Add)
	}
	if err := jv.Err(); err != nil {
		t.Error(err)
	}
}

func TestTruncateID(t *testing.T) {
	long := strings.Repeat("a", 50) + strings.Repeat("b", 50)
	got := truncateID(long, 80)
	if len([]rune(got)) != 80 || !strings.HasPrefix(got, "aaa") || !strings.HasSuffix(got, "bbb") || !strings.Contains(got, "...") {
		t.Errorf("truncateID = %q (%d runes)", got, len([]rune(got)))
	}
	if got := truncateID("short", 80); got != "short" {
		t.Errorf("truncateID(short) = %q", got)
	}
}
