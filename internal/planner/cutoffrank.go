package planner

import (
	"cmp"
	"strings"
)

// rankCandidates orders a create's candidates: the exact ones first, then
// those that have the planned identity, then those that have more of the
// planned values, then those that differ in
// fewer, then in identity order.
func rankCandidates(a, b CutOffCandidate) int {
	if a.Exact != b.Exact {
		if a.Exact {
			return -1
		}
		return 1
	}
	if !a.Exact {
		if a.IdentityMatch != b.IdentityMatch {
			if a.IdentityMatch {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(len(b.Matched), len(a.Matched)); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.Differences), len(b.Differences)); c != 0 {
			return c
		}
	}
	return strings.Compare(a.IdentityJSON, b.IdentityJSON)
}
