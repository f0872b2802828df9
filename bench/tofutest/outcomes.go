package tofutest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Outcomes are the statuses a test command gave, by file and run block:
// "pass", "fail", "error" or "skip", as the JSON messages say them. A run
// the command reported no status for is absent.
type Outcomes map[string]map[string]string

// ParseOutcomes reads a test command's -json output: the status of each
// test_run message (the last one a run got, for Terraform's progress
// messages).
func ParseOutcomes(out []byte) (Outcomes, error) {
	o := Outcomes{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var msg struct {
			Type    string `json:"type"`
			TestRun *struct {
				Path, Run, Status, Progress string
			} `json:"test_run"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("reading a JSON message: %w", err)
		}
		if msg.Type != "test_run" || msg.TestRun == nil || msg.TestRun.Status == "" {
			continue
		}
		if o[msg.TestRun.Path] == nil {
			o[msg.TestRun.Path] = map[string]string{}
		}
		o[msg.TestRun.Path][msg.TestRun.Run] = msg.TestRun.Status
	}
	return o, sc.Err()
}

// Diff lists, one a line, how got differs from want: "FILE/RUN: want X,
// got Y" ("none" for a run without a status), sorted; nil when they agree.
func Diff(want, got Outcomes) []string {
	var out []string
	files := map[string]bool{}
	for f := range want {
		files[f] = true
	}
	for f := range got {
		files[f] = true
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		runs := map[string]bool{}
		for r := range want[f] {
			runs[r] = true
		}
		for r := range got[f] {
			runs[r] = true
		}
		for _, r := range slices.Sorted(maps.Keys(runs)) {
			w, g := want[f][r], got[f][r]
			if w != g {
				out = append(out, fmt.Sprintf("%s/%s: want %s, got %s", f, r, orNone(w), orNone(g)))
			}
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// String writes the outcomes one run a line, "FILE/RUN STATUS", sorted:
// the form of the outcomes files fixtures record.
func (o Outcomes) String() string {
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(o)) {
		for _, r := range slices.Sorted(maps.Keys(o[f])) {
			fmt.Fprintf(&b, "%s/%s %s\n", f, r, o[f][r])
		}
	}
	return b.String()
}

// ParseOutcomesFile reads outcomes in the form String writes; lines
// starting with # and blank lines are skipped.
func ParseOutcomesFile(src []byte) (Outcomes, error) {
	o := Outcomes{}
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, status, ok := strings.Cut(line, " ")
		slash := strings.LastIndex(key, "/")
		if !ok || slash < 0 {
			return nil, fmt.Errorf("line %d: want FILE/RUN STATUS, got %q", i+1, line)
		}
		file, run := key[:slash], key[slash+1:]
		if o[file] == nil {
			o[file] = map[string]string{}
		}
		o[file][run] = strings.TrimSpace(status)
	}
	return o, nil
}
