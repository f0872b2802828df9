package command

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
)

// listFlag collects a flag given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// recoverChoice is what rig recover does about the creates cut off at one
// address: import some of its candidates (picks, 1-based: the first as
// the instance's current object, unless it has one, the others as deposed
// objects), or forget them (absent); nothing when neither.
type recoverChoice struct {
	picks  []int
	absent bool
	// why says who decided: "exact match", "-select", "answer", …
	why string
}

// runRecover is `rig recover`: for each create an earlier apply left in
// flight (record_create_intents), it asks the provider which objects of
// the type exist that the state does not record, shows them beside the
// planned values, imports the exact matches and forgets the creates that
// made nothing, on confirmation.
func runRecover(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("recover")
	m.varFlags(fs, &f.vars)
	addLockFlags(fs, &f.lock, &f.lockTimeout)
	fs.BoolVar(&f.autoApprove, "auto-approve", false, "Import the exact matches and forget the creates that made nothing without asking.")
	var stream streamFlags
	addStreamFlags(fs, &stream)
	var selects, absents listFlag
	fs.Var(&selects, "select", "Import candidate `ADDR=N` (its number in the list; N,M,… for several) for the create at ADDR; may be repeated.")
	fs.Var(&absents, "absent", "Forget the create at `ADDR`: no object was made for it (or it was deleted); may be repeated.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The recover command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	ins, err := m.dir().InFlightCreates()
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the creates' intents", "%s", err)})
		return 1
	}
	out := newRecoverOutput(m)
	if len(ins) == 0 {
		out.nothing()
		return 0
	}
	choices, ds := recoverFlagChoices(ins, selects, absents)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}

	var forceStop func()
	ctx, stop := m.interrupts.Notify(func() {
		if forceStop != nil {
			forceStop()
		}
	})
	defer stop()
	sess, more := m.open(ctx, &f, "OperationTypeImport")
	defer sess.Close()
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	forceStop = func() { sess.Providers.Stop(context.Background()) }
	found, more := sess.FindCutOffCreates(ctx, ins)
	if ds = ds.Append(more); ctx.Err() != nil {
		m.showDiagnostics(ds)
		return 1
	}
	for i := range found {
		c, ok := choices[found[i].Create.Addr.String()]
		if ok && slices.Max(append([]int{0}, c.picks...)) > len(found[i].Candidates) {
			ds = ds.Append(diag.Errorf("Invalid -select", "-select=%s: %s has %d candidate(s).", found[i].Create.Addr, found[i].Create.Addr, len(found[i].Candidates)))
			continue
		}
		if !ok {
			c = defaultRecoverChoice(found[i])
		}
		out.finding(found[i], c)
		if len(c.picks) == 0 && !c.absent && found[i].Status != planner.CutOffUnsearchable && !stream.json && !f.autoApprove && m.inputAllowed() {
			c = m.askRecoverChoice(found[i])
		}
		choices[found[i].Create.Addr.String()] = c
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}

	var targets []planner.ImportTarget
	var forgotten []string
	resolved := map[string]bool{}
	picked := map[string]string{} // candidate to the address importing it
	undecided := 0
	for _, fd := range found {
		addr := fd.Create.Addr.String()
		c := choices[addr]
		switch {
		case len(c.picks) > 0:
			for i, n := range c.picks {
				cand := fd.Candidates[n-1]
				key := fd.ProviderConfig.String() + " " + cand.IdentityJSON
				if other, dup := picked[key]; dup {
					ds = ds.Append(diag.Errorf("Object imported twice", "Candidate %s is chosen for both %s and %s: an object can be imported only once.", cand.IdentityJSON, other, addr))
				}
				picked[key] = addr
				targets = append(targets, planner.ImportTarget{Addr: fd.Create.Addr, ID: cand.IdentityJSON, Identity: cand.Identity, Deposed: fd.Occupied || i > 0, BesideDeposed: true})
			}
		case c.absent:
			forgotten = append(forgotten, addr)
			resolved[addr] = true
		default:
			undecided++
		}
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if len(targets)+len(forgotten) == 0 {
		m.showDiagnostics(ds)
		out.summary(nil, nil, undecided)
		return 0
	}
	if !f.autoApprove && !stream.json {
		if !m.confirm("Do you want to perform these actions?", fmt.Sprintf(
			"rig will import %d object(s) and forget %d create(s) cut off by a crash.\nOnly 'yes' will be accepted to approve.", len(targets), len(forgotten))) {
			m.showDiagnostics(ds)
			fmt.Fprintln(m.Out, "Recovery cancelled.")
			return 1
		}
	} else if !f.autoApprove {
		m.showDiagnostics(ds.Append(diag.Errorf("No approval", "With -json, rig recover changes nothing without -auto-approve.")))
		return 1
	}

	var imported []string
	if len(targets) > 0 {
		st, more := sess.Import(ctx, targets, nil)
		if ds = ds.Append(more); ds.HasErrors() {
			m.showDiagnostics(ds)
			out.summary(nil, nil, len(found))
			return 1
		}
		endWriting := m.interrupts.BeginWriting()
		more = sess.Persist(st, m.Out)
		endWriting()
		if ds = ds.Append(more); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		for _, t := range targets {
			imported = append(imported, t.Addr.String())
			resolved[t.Addr.String()] = true
		}
	}
	var left []apply.Intent
	for _, in := range ins {
		if !resolved[in.Address] {
			left = append(left, in)
		}
	}
	if err := m.dir().KeepCutOffCreates(left); err != nil {
		ds = ds.Append(diag.Errorf("Failed to update the creates' intents", "The state records the imported objects, but rig could not update the list of cut-off creates: %s. It lists them again until rig recover resolves them.", err))
	}
	m.showDiagnostics(ds)
	out.summary(imported, forgotten, undecided)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// recoverFlagChoices reads -select and -absent, by address.
func recoverFlagChoices(ins []apply.Intent, selects, absents []string) (map[string]recoverChoice, diag.Diagnostics) {
	listed := map[string]bool{}
	for _, in := range ins {
		listed[in.Address] = true
	}
	out := map[string]recoverChoice{}
	var ds diag.Diagnostics
	check := func(flag, addr string) bool {
		if !listed[addr] {
			ds = ds.Append(diag.Errorf("Invalid "+flag, "%s is not among the creates cut off by a crash.", addr))
			return false
		}
		if _, dup := out[addr]; dup {
			ds = ds.Append(diag.Errorf("Invalid "+flag, "%s is decided twice.", addr))
			return false
		}
		return true
	}
	for _, s := range selects {
		i := strings.LastIndexByte(s, '=')
		picks, ok := parsePicks(s[i+1:])
		if i < 0 || !ok {
			ds = ds.Append(diag.Errorf("Invalid -select", "-select=%s: want ADDR=N (or ADDR=N,M,…), N a candidate's number in rig recover's list.", s))
			continue
		}
		if check("-select", s[:i]) {
			out[s[:i]] = recoverChoice{picks: picks, why: "-select"}
		}
	}
	for _, addr := range absents {
		if check("-absent", addr) {
			out[addr] = recoverChoice{absent: true, why: "-absent"}
		}
	}
	return out, ds
}

// defaultRecoverChoice is what rig does about a finding unless told: import
// the one exact match, forget a create whose provider lists nothing the
// state does not record; leave the rest to the user.
func defaultRecoverChoice(f planner.CutOffFinding) recoverChoice {
	switch f.Status {
	case planner.CutOffFound:
		c := recoverChoice{why: "the one exact match"}
		for i, cand := range f.Candidates {
			if cand.Exact {
				c.picks = append(c.picks, i+1)
			}
		}
		if len(c.picks) > 1 {
			c.why = "an exact match for each create cut off"
		}
		return c
	case planner.CutOffAbsent:
		return recoverChoice{absent: true, why: "nothing found"}
	}
	return recoverChoice{}
}

// askRecoverChoice asks what to do about a finding that needs a decision.
func (m *Meta) askRecoverChoice(f planner.CutOffFinding) recoverChoice {
	fmt.Fprintf(m.Out, "\nWhat should rig do about %s?\n  Enter a candidate's number to import it (N,M,… for several), \"absent\" if no object was made for it, or nothing to decide later.\n\n  Enter a value: ", f.Create.Addr)
	answer, _ := readLine(m.In)
	fmt.Fprintln(m.Out)
	answer = strings.TrimSpace(answer)
	if answer == "absent" {
		return recoverChoice{absent: true, why: "answer"}
	}
	if picks, ok := parsePicks(answer); ok && slices.Max(picks) <= len(f.Candidates) {
		return recoverChoice{picks: picks, why: "answer"}
	}
	return recoverChoice{}
}

// parsePicks reads "N" or "N,M,…": candidate numbers, each once.
func parsePicks(s string) ([]int, bool) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || slices.Contains(out, n) {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}
