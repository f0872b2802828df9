package lang

import "sort"

// nameSuggestion returns the candidate closest to given by edit distance,
// if any is within distance 2, or "". Ties go to the first in sorted order.
func nameSuggestion(given string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestDist := "", 3
	for _, c := range sorted {
		if d := levenshtein(given, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// NameSuggestion returns the candidate closest to given when it is close
// enough to be a likely misspelling (for "Did you mean …?"), else "".
func NameSuggestion(given string, candidates []string) string {
	return nameSuggestion(given, candidates)
}
