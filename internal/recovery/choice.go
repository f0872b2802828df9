package recovery

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
)

// Choice is what rig recover does about the creates cut off at one
// address: import some of its candidates (Picks, 1-based: the first as
// the instance's current object, unless it has one, the others as
// deposed objects), or forget them (Absent); nothing when neither.
type Choice struct {
	Picks  []int
	Absent bool
	// Why says who decided: "the one exact match", "-select", "answer", …
	Why string
}

// Decided reports whether the choice imports or forgets.
func (c Choice) Decided() bool { return len(c.Picks) > 0 || c.Absent }

// Default is what rig does about a finding unless told: import the one
// exact match (one for each create cut off at the address), forget a
// create whose provider lists nothing the state does not record; leave
// the rest to the user.
func Default(f planner.CutOffFinding) Choice {
	switch f.Status {
	case planner.CutOffFound:
		c := Choice{Why: "the one exact match"}
		for i, cand := range f.Candidates {
			if cand.Exact {
				c.Picks = append(c.Picks, i+1)
			}
		}
		if len(c.Picks) > 1 {
			c.Why = "an exact match for each create cut off"
		}
		return c
	case planner.CutOffAbsent:
		return Choice{Absent: true, Why: "nothing found"}
	}
	return Choice{}
}

// FlagChoices reads -select (selects, each ADDR=N or ADDR=N,M,…) and
// -absent (absents, each ADDR), by address. Every address must be one of
// the creates in ins, and decided once.
func FlagChoices(ins []apply.Intent, selects, absents []string) (map[string]Choice, diag.Diagnostics) {
	listed := map[string]bool{}
	for _, in := range ins {
		listed[in.Address] = true
	}
	out := map[string]Choice{}
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
		picks, ok := ParsePicks(s[i+1:])
		if i < 0 || !ok {
			ds = ds.Append(diag.Errorf("Invalid -select", "-select=%s: want ADDR=N (or ADDR=N,M,…), N a candidate's number in rig recover's list.", s))
			continue
		}
		if check("-select", s[:i]) {
			out[s[:i]] = Choice{Picks: picks, Why: "-select"}
		}
	}
	for _, addr := range absents {
		if check("-absent", addr) {
			out[addr] = Choice{Absent: true, Why: "-absent"}
		}
	}
	return out, ds
}

// CheckPicks reports a choice that picks a candidate f does not have.
func CheckPicks(f planner.CutOffFinding, c Choice) diag.Diagnostics {
	if slices.Max(append([]int{0}, c.Picks...)) > len(f.Candidates) {
		return diag.Diagnostics{diag.Errorf("Invalid -select", "-select=%s: %s has %d candidate(s).", f.Create.Addr, f.Create.Addr, len(f.Candidates))}
	}
	return nil
}

// ParseAnswer reads the answer to the question of what to do about a
// finding with candidates candidates: "absent", or candidate numbers
// (ParsePicks); anything else decides nothing.
func ParseAnswer(answer string, candidates int) Choice {
	answer = strings.TrimSpace(answer)
	if answer == "absent" {
		return Choice{Absent: true, Why: "answer"}
	}
	if picks, ok := ParsePicks(answer); ok && slices.Max(picks) <= candidates {
		return Choice{Picks: picks, Why: "answer"}
	}
	return Choice{}
}

// ParsePicks reads "N" or "N,M,…": candidate numbers, each once.
func ParsePicks(s string) ([]int, bool) {
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
