package command

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

// runStateIdentities prints the resource identities the state records, as
// one JSON object from instance address to identity, as Terraform 1.16's
// `state identities -json` prints them.
func runStateIdentities(m *Meta, args []string) int {
	fs := m.flagSet("state identities")
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.AnyBackend = true
	jsonOut := fs.Bool("json", false, "Print the identities as JSON; required, as there is no other format.")
	id := fs.String("id", "", "List only the instances whose object's id attribute is `ID`.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if !*jsonOut {
		return m.argsError(fs, "Invalid arguments", "The `rig state identities` command requires the `-json` flag.")
	}
	m.documentOut = true
	s, ds := m.storedState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	out := map[string]any{}
	insts, ds := workdir.ListInstances(s, fs.Args(), *id)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	for _, inst := range insts {
		obj := s.Object(addrs.ObjectAddr{Instance: inst})
		if obj == nil || len(obj.IdentityJSON) == 0 {
			continue
		}
		// Decoded and written again, so that its keys are sorted and
		// indented with the rest; numbers are kept as written.
		dec := json.NewDecoder(bytes.NewReader(obj.IdentityJSON))
		dec.UseNumber()
		var identity any
		if err := dec.Decode(&identity); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid resource identity in the state", "The identity of %s is not JSON: %s.", inst, err)})
			return 1
		}
		out[inst.String()] = identity
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode the identities", "%s", err)})
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	return 0
}
