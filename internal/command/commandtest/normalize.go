package commandtest

import (
	"regexp"
	"slices"
	"strings"
)

var (
	idPattern       = regexp.MustCompile(`id-\d+`)
	elapsedPattern  = regexp.MustCompile(`after \d+s`)
	deposedPattern  = regexp.MustCompile(`deposed object [0-9a-f]{8}`)
	tempDirPattern  = regexp.MustCompile(`/tmp/[^\s"]*`)
	timestampFormat = regexp.MustCompile(`"@timestamp":"[^"]*"`)
)

// Normalize replaces what varies between runs of a command (the built-in
// provider's ids id-N, elapsed times, deposed keys, temporary paths, JSON
// timestamps) with fixed placeholders, and sorts each run of "Refreshing
// state..." lines (objects are read in parallel, in no set order).
func Normalize(s string) string {
	s = sortRefreshLines(s)
	s = idPattern.ReplaceAllString(s, "id-N")
	s = elapsedPattern.ReplaceAllString(s, "after Ns")
	s = deposedPattern.ReplaceAllString(s, "deposed object XXXXXXXX")
	s = tempDirPattern.ReplaceAllString(s, "TMPDIR")
	s = timestampFormat.ReplaceAllString(s, `"@timestamp":"T"`)
	return s
}

// sortRefreshLines sorts each run of "ADDR: Refreshing state..." lines.
func sortRefreshLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		if !strings.Contains(lines[i], ": Refreshing state...") {
			i++
			continue
		}
		j := i
		for j < len(lines) && strings.Contains(lines[j], ": Refreshing state...") {
			j++
		}
		slices.Sort(lines[i:j])
		i = j
	}
	return strings.Join(lines, "\n")
}

// ContainsText reports whether s contains want, ignoring how either is
// wrapped into lines.
func ContainsText(s, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(want), " "))
}
