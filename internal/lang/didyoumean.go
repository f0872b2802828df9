package lang

import (
	"sort"

	"github.com/rig-iac/rig/internal/diag"
)

// nameSuggestion returns the candidate closest to given by edit distance,
// if any is within distance 2, or "". Ties go to the first in sorted order.
func nameSuggestion(given string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestDist := "", 3
	for _, c := range sorted {
		if d := diag.EditDistance(given, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// NameSuggestion returns the candidate closest to given when it is close
// enough to be a likely misspelling (for "Did you mean …?"), else "".
func NameSuggestion(given string, candidates []string) string {
	return nameSuggestion(given, candidates)
}
