package command

import (
	"context"
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/recovery"
	"github.com/rig-iac/rig/internal/ui"
)

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
	var selects, absents cliargs.List
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
	out := ui.NewRecoverView(m.Out, m.stream)
	if len(ins) == 0 {
		out.Nothing()
		return 0
	}
	choices, ds := recovery.FlagChoices(ins, selects, absents)
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
		if more := recovery.CheckPicks(found[i], c); more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		if !ok {
			c = recovery.Default(found[i])
		}
		out.Finding(found[i], c)
		if !c.Decided() && found[i].Status != planner.CutOffUnsearchable && !stream.json && !f.autoApprove && m.inputAllowed() {
			c = m.askRecoverChoice(found[i])
		}
		choices[found[i].Create.Addr.String()] = c
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}

	res, more := recovery.Resolve(found, choices)
	targets, forgotten := res.Targets, res.Forgotten
	ds = ds.Append(more)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if len(targets)+len(forgotten) == 0 {
		m.showDiagnostics(ds)
		out.Summary(nil, nil, res.Undecided)
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
			out.Summary(nil, nil, len(found))
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
		}
	}
	if err := m.dir().KeepCutOffCreates(recovery.Left(ins, append(slices.Clone(forgotten), imported...))); err != nil {
		ds = ds.Append(diag.Errorf("Failed to update the creates' intents", "The state records the imported objects, but rig could not update the list of cut-off creates: %s. It lists them again until an apply completes.", err))
	}
	m.showDiagnostics(ds)
	out.Summary(imported, forgotten, res.Undecided)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// askRecoverChoice asks what to do about a finding that needs a decision.
func (m *Meta) askRecoverChoice(f planner.CutOffFinding) recovery.Choice {
	fmt.Fprintf(m.Out, "\nWhat should rig do about %s?\n  Enter a candidate's number to import it (N,M,… for several), \"absent\" if no object was made for it, or nothing to decide later.\n\n  Enter a value: ", f.Create.Addr)
	answer, _ := readLine(m.In)
	fmt.Fprintln(m.Out)
	return recovery.ParseAnswer(answer, len(f.Candidates))
}
