package workdir

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
)

// IntentsPath is where applies record each create's intent before its
// provider is asked (rig.hcl's record_create_intents): JSON lines, mode
// 0600, each flushed to disk before the call. It is .terraform/rig-intents.jsonl,
// or rig-intents.jsonl in TF_DATA_DIR.
func (d *Dir) IntentsPath() string { return d.DataPath("rig-intents.jsonl") }

// intentLine is one line of the intents file: a create's intent, or the
// end of the create at an address.
type intentLine struct {
	Begin *apply.Intent `json:"begin,omitempty"`
	End   string        `json:"end,omitempty"`
}

// IntentFile is the apply.IntentLog of one apply, appending to the file.
type IntentFile struct {
	mu sync.Mutex // guards f
	f  *os.File
}

func (l *IntentFile) write(line intentLine) error {
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", l.f.Name(), err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("flush %s: %w", l.f.Name(), err)
	}
	return nil
}

// Begin records in before the create, durably.
func (l *IntentFile) Begin(in apply.Intent) error { return l.write(intentLine{Begin: &in}) }

// End records that the create at addr ended and its result is recorded.
func (l *IntentFile) End(addr addrs.AbsResourceInstance) error {
	return l.write(intentLine{End: addr.String()})
}

// InFlightCreates reads the intents file: the creates that began and
// never ended, in the order they began; nil when there is no file. An end
// closes the latest create begun at its address: the one of the apply
// that wrote it, never one an earlier run left cut off there.
func (d *Dir) InFlightCreates() ([]apply.Intent, error) {
	path := d.IntentsPath()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []apply.Intent
	open := map[string][]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var line intentLine
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue // a line cut short by the crash
		}
		switch {
		case line.Begin != nil:
			open[line.Begin.Address] = append(open[line.Begin.Address], len(out))
			out = append(out, *line.Begin)
		case line.End != "":
			if idx := open[line.End]; len(idx) > 0 {
				out[idx[len(idx)-1]].Address = "" // ended
				open[line.End] = idx[:len(idx)-1]
			}
		}
	}
	return slices.DeleteFunc(out, func(in apply.Intent) bool { return in.Address == "" }), nil
}

// CutOffCreatesWarning lists the creates a crash cut off, with the values
// each was planned with: the objects their providers may have made, which
// the state does not record. nil when there are none.
func CutOffCreatesWarning(ins []apply.Intent) diag.Diagnostics {
	if len(ins) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rig was stopped while %d create(s) were under way: their providers may have made objects that the state does not record.\n", len(ins))
	for _, in := range ins {
		fmt.Fprintf(&b, "\n  %s (%s)\n", in.Address, in.Provider)
		if len(in.Identity) > 0 {
			identity, _ := json.Marshal(in.Identity)
			fmt.Fprintf(&b, "    identity = %s\n", identity)
		}
		names := make([]string, 0, len(in.Values))
		for name := range in.Values {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fmt.Fprintf(&b, "    %s = %s\n", name, in.Values[name])
		}
	}
	b.WriteString("\nLook for each object with these values where its provider keeps it (its console or API), or let \"rig recover\" look: if it exists, bring it under management with \"rig recover\", an import block or \"rig import ADDRESS ID\", or delete it; a plan that still configures the instance creates it again otherwise. rig lists these creates until \"rig recover\" resolves them.")
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Creates cut off by a crash", Detail: b.String()}}
}

// CutOffCreates returns the creates an earlier run left in flight, which
// an apply carries over (OpenIntents), and the warning that lists them
// (nil when there are none, or a warning that the file could not be read).
func (d *Dir) CutOffCreates() ([]apply.Intent, diag.Diagnostics) {
	ins, err := d.InFlightCreates()
	if err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Warning, Summary: "Failed to read the creates' intents", Detail: err.Error()}}
	}
	return ins, CutOffCreatesWarning(ins)
}

// OpenIntents starts the intents file of an apply: the creates an earlier
// run left in flight first, so they are listed until rig recover resolves
// them, whatever this apply does.
// It returns nil (no log) when rig.hcl does not ask for intents.
func (d *Dir) OpenIntents(enabled bool, carried []apply.Intent) (*IntentFile, error) {
	path := d.IntentsPath()
	if !enabled {
		return nil, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	var buf bytes.Buffer
	for i := range carried {
		b, err := json.Marshal(intentLine{Begin: &carried[i]})
		if err != nil {
			return nil, err
		}
		buf.Write(append(b, '\n'))
	}
	if err := writePrivateFile(tmp, buf.Bytes()); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	return &IntentFile{f: f}, nil
}

// CloseIntents closes the apply's intents file; an apply that completed
// without errors, all its own creates ended, keeps in it only the creates
// an earlier run left cut off (removing it when there are none): the
// objects they may have made are not in the state, and stay listed until
// rig recover resolves them.
func (d *Dir) CloseIntents(l *IntentFile, completed bool) {
	if l != nil {
		l.f.Close()
	}
	if !completed {
		return
	}
	if left, err := d.InFlightCreates(); err == nil {
		// On an error the file stays as it is: it lists too much, not too little.
		_ = d.KeepCutOffCreates(left)
	}
}

// KeepCutOffCreates rewrites the intents file to hold only the creates in
// left, those a recovery did not resolve (imported, or confirmed absent);
// with none left it removes the file.
func (d *Dir) KeepCutOffCreates(left []apply.Intent) error {
	if len(left) == 0 {
		if err := os.Remove(d.IntentsPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	l, err := d.OpenIntents(true, left)
	if err != nil {
		return fmt.Errorf("rewriting %s: %w", d.IntentsPath(), err)
	}
	d.CloseIntents(l, false)
	return nil
}

// FindCutOffCreates searches, with the providers of the session, for the
// objects the creates in ins may have made (planner.FindCutOffCreates):
// one search per address, however many of its creates were cut off. A
// create whose address no longer parses is not searched.
func (s *Session) FindCutOffCreates(ctx context.Context, ins []apply.Intent) ([]planner.CutOffFinding, diag.Diagnostics) {
	creates := make([]planner.CutOffCreate, 0, len(ins))
	at := map[string]int{}
	var ds diag.Diagnostics
	for _, in := range ins {
		if i, ok := at[in.Address]; ok {
			creates[i].Count++
			creates[i].Values, creates[i].Identity = in.Values, in.Identity
			continue
		}
		addr, err := addrs.ParseAbsResourceInstanceStr(in.Address)
		if err != nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid address of a cut-off create",
				Detail: fmt.Sprintf("The intents file records a create at %q, which is not a resource instance address (%s): it is not searched for.", in.Address, err)})
			continue
		}
		at[in.Address] = len(creates)
		creates = append(creates, planner.CutOffCreate{Addr: addr, Values: in.Values, Identity: in.Identity, Count: 1})
	}
	found, more := planner.FindCutOffCreates(ctx, s.Config, s.State, s.Providers, creates,
		planner.Options{Variables: s.Variables, Env: s.Env, Dependencies: s.Dependencies})
	return found, ds.Append(more)
}
