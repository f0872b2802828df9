package diag

import (
	"cmp"
	"slices"
)

// suggestDistance is the edit distance below which a name is taken for a
// misspelling of another, the threshold OpenTofu and Terraform use for
// their "Did you mean" suggestions.
const suggestDistance = 3

// Suggestion returns the candidate nearest to given by edit distance
// (Levenshtein, in characters) when it is nearer than 3, as OpenTofu's
// "Did you mean" suggestions are; "" when none is. Of equally near
// candidates the first in sorted order wins, whatever the order given.
func Suggestion(given string, candidates []string) string {
	best, bestDist := "", suggestDistance
	for _, c := range candidates {
		d := EditDistance(given, c)
		if d < bestDist || d == bestDist && d < suggestDistance && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// Nearest returns the candidates nearest to given, if they are at most
// maxDist edits from it: all those at the smallest distance, in sorted
// order, at most n; nil when none is that near.
func Nearest(given string, candidates []string, maxDist, n int) []string {
	type near struct {
		name string
		dist int
	}
	var found []near
	for _, c := range candidates {
		if d := EditDistance(given, c); d <= maxDist {
			found = append(found, near{c, d})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.name, b.name))
	})
	var out []string
	for i := 0; i < len(found) && len(out) < n && found[i].dist == found[0].dist; i++ {
		if i > 0 && found[i].name == found[i-1].name {
			continue
		}
		out = append(out, found[i].name)
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b, in characters.
func EditDistance(a, b string) int {
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
