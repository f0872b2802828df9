package cloudbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tool is a command-line tool the steps run: rig or an OpenTofu (or
// Terraform) executable.
type tool struct{ name, exe string }

// step is one command of the sequence every tool runs.
type step struct {
	name string
	args []string
	// wantExit is the exit code of success (2: a plan with changes).
	wantExit int
	// drift, when set, drifts this fraction of the cloud's objects
	// before the step (once, for every tool).
	drift float64
	// rigArgs, when set, are rig's arguments instead of args: a command
	// the other tools do not have, beside their nearest one.
	rigArgs []string
}

var steps = []step{
	{name: "apply", args: []string{"apply", "-auto-approve", "-input=false"}},
	{name: "no-op plan", args: []string{"plan", "-input=false", "-detailed-exitcode"}},
	// rig's first -refresh=changed knows no refresh times (it reads every
	// object and records them); the second reads none back.
	{name: "no-op plan, rig -refresh=changed (first)", args: []string{"plan", "-input=false", "-detailed-exitcode"},
		rigArgs: []string{"plan", "-input=false", "-detailed-exitcode", "-refresh=changed"}},
	{name: "no-op plan, rig -refresh=changed", args: []string{"plan", "-input=false", "-detailed-exitcode"},
		rigArgs: []string{"plan", "-input=false", "-detailed-exitcode", "-refresh=changed"}},
	{name: "plan after drift", args: []string{"plan", "-input=false", "-detailed-exitcode"}, wantExit: 2, drift: 0.05},
	{name: "drift (others: plan -refresh-only)", args: []string{"plan", "-refresh-only", "-input=false", "-detailed-exitcode"}, wantExit: 2,
		rigArgs: []string{"drift"}},
	{name: "destroy", args: []string{"destroy", "-auto-approve", "-input=false"}},
}

// result is what one tool's step cost and did.
type result struct {
	n         int
	step      string
	tool      string
	run       run
	ok        bool
	stats     stats
	apiCalls  int64
	throttled int64
	failures  int64
}

// runSteps runs the steps with each tool on n objects against cloud c, the
// tools taking turns at each step, and returns the results in that order.
// Each tool has its own working directory under dir and its own objects.
func runSteps(tb testing.TB, t tools, c *cloud, tls []tool, dir string, n int) []result {
	tb.Helper()
	dirs := map[string]string{}
	for _, tl := range tls {
		d := workdir(tb, t, filepath.Join(dir, fmt.Sprintf("%s-%d", tl.name, n)), configuration(tl.name, n))
		if r := command(tb, c, d, tl.exe, "init", "-input=false"); r.exit != 0 {
			tb.Fatalf("%s init: exit %d\n%s", tl.name, r.exit, r.output)
		}
		dirs[tl.name] = d
	}
	var out []result
	for i, s := range steps {
		if s.drift > 0 {
			c.drift(tb, s.drift, i)
		}
		for _, tl := range tls {
			c.resetStats(tb)
			args := s.args
			if tl.name == "rig" && s.rigArgs != nil {
				args = s.rigArgs
			}
			r := command(tb, c, dirs[tl.name], tl.exe, args...)
			st := c.stats(tb)
			res := result{n: n, step: s.name, tool: tl.name, run: r, ok: r.exit == s.wantExit, stats: st}
			for _, v := range st.Calls {
				res.apiCalls += v
			}
			for _, v := range st.Throttled {
				res.throttled += v
			}
			for _, v := range st.Providers.Failures {
				res.failures += v
			}
			if !res.ok {
				tb.Logf("%s %s (N = %d): exit %d, want %d\n%s", tl.name, s.name, n, r.exit, s.wantExit, tail(r.output, 40))
			}
			out = append(out, res)
			logProgress(tableRow(res))
		}
	}
	return out
}

// tail returns the last lines of s.
func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-lines):], "\n")
}

// rpcColumns are the provider RPCs the table shows, with their headings.
var rpcColumns = []struct{ rpc, heading string }{
	{"ReadResource", "Read"}, {"PlanResourceChange", "Plan"}, {"ApplyResourceChange", "Apply"},
}

// table renders results as a Markdown table.
func table(results []result) string {
	var b strings.Builder
	b.WriteString("| N | step | tool | wall | API calls | refused (429) | throttling errors |")
	for _, c := range rpcColumns {
		fmt.Fprintf(&b, " %s RPCs |", c.heading)
	}
	b.WriteString(" most API calls at once | peak RSS |\n|---:|---|---|---:|---:|---:|---:|")
	for range rpcColumns {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|\n")
	for _, r := range results {
		b.WriteString(tableRow(r))
	}
	return b.String()
}

// tableRow renders one result as a row of table.
func tableRow(r result) string {
	var b strings.Builder
	wall := fmt.Sprintf("%.1f s", r.run.wall.Seconds())
	if !r.ok {
		wall += fmt.Sprintf(" (exit %d)", r.run.exit)
	}
	fmt.Fprintf(&b, "| %d | %s | %s | %s | %d | %d | %d |", r.n, r.step, r.tool, wall, r.apiCalls, r.throttled, r.failures)
	for _, c := range rpcColumns {
		fmt.Fprintf(&b, " %d |", r.stats.Providers.RPCs[c.rpc])
	}
	fmt.Fprintf(&b, " %d | %d MiB |\n", r.stats.MaxInFlight, r.run.maxRSSKiB/1024)
	return b.String()
}

// logProgress appends row to the file RIG_BENCH_PROGRESS names, if set:
// a long run shows each row as soon as it is measured.
func logProgress(row string) {
	path := os.Getenv("RIG_BENCH_PROGRESS")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(row)
	f.Close()
}
