package recovery

import (
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
)

// Resolution is what the choices about the findings come to.
type Resolution struct {
	// Targets are the candidates to import, in the order of the findings
	// and of each choice's picks: the first of an address into it (as a
	// deposed object when an apply has made its object since), the others
	// as deposed objects.
	Targets []planner.ImportTarget
	// Forgotten are the addresses whose creates are forgotten.
	Forgotten []string
	// Undecided counts the findings left without a decision.
	Undecided int
}

// Resolve turns the choices (by address; a finding without one is
// undecided) into the imports and forgotten creates they say. A
// candidate chosen for two addresses is an error: an object is imported
// once.
func Resolve(found []planner.CutOffFinding, choices map[string]Choice) (Resolution, diag.Diagnostics) {
	var r Resolution
	var ds diag.Diagnostics
	picked := map[string]string{} // candidate to the address importing it
	for _, fd := range found {
		addr := fd.Create.Addr.String()
		c := choices[addr]
		switch {
		case len(c.Picks) > 0:
			for i, n := range c.Picks {
				cand := fd.Candidates[n-1]
				key := fd.ProviderConfig.String() + " " + cand.IdentityJSON
				if other, dup := picked[key]; dup {
					ds = ds.Append(diag.Errorf("Object imported twice", "Candidate %s is chosen for both %s and %s: an object can be imported only once.", cand.IdentityJSON, other, addr))
				}
				picked[key] = addr
				r.Targets = append(r.Targets, planner.ImportTarget{Addr: fd.Create.Addr, ID: cand.IdentityJSON, Identity: cand.Identity, Deposed: fd.Occupied || i > 0, BesideDeposed: true})
			}
		case c.Absent:
			r.Forgotten = append(r.Forgotten, addr)
		default:
			r.Undecided++
		}
	}
	return r, ds
}

// Left returns the intents of ins whose address is not among resolved
// (the addresses imported or forgotten): what the intents file keeps.
func Left(ins []apply.Intent, resolved []string) []apply.Intent {
	done := map[string]bool{}
	for _, addr := range resolved {
		done[addr] = true
	}
	var left []apply.Intent
	for _, in := range ins {
		if !done[in.Address] {
			left = append(left, in)
		}
	}
	return left
}
