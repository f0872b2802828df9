package hclfmt

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// diffContext is the number of unchanged lines around each change in a
// unified diff, as `diff -u` shows.
const diffContext = 3

// WriteUnifiedDiff writes the differences between old and new as `diff -u
// --label=old/NAME --label=new/NAME` does, or nothing when they are equal.
// Lines keep their line endings (a CRLF file's diff shows its CRs).
func WriteUnifiedDiff(w io.Writer, name string, old, new []byte) {
	a, b := splitLines(old), splitLines(new)
	edits := diffLines(a, b)
	if len(edits) == 0 {
		return
	}
	fmt.Fprintf(w, "--- old/%s\n+++ new/%s\n", name, name)
	for len(edits) > 0 {
		// A hunk takes the changes whose unchanged gaps are short enough
		// for their contexts to touch.
		n := 1
		for n < len(edits) && edits[n].a0-edits[n-1].a1 <= 2*diffContext {
			n++
		}
		writeHunk(w, a, b, edits[:n])
		edits = edits[n:]
	}
}

// edit replaces a[a0:a1] with b[b0:b1].
type edit struct{ a0, a1, b0, b1 int }

func writeHunk(w io.Writer, a, b []string, edits []edit) {
	first, last := edits[0], edits[len(edits)-1]
	a0 := max(first.a0-diffContext, 0)
	b0 := first.b0 - (first.a0 - a0)
	a1 := min(last.a1+diffContext, len(a))
	b1 := last.b1 + (a1 - last.a1)
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(a0, a1), hunkRange(b0, b1))
	i := a0
	for _, e := range edits {
		for ; i < e.a0; i++ {
			writeDiffLine(w, ' ', a[i])
		}
		for _, l := range a[e.a0:e.a1] {
			writeDiffLine(w, '-', l)
		}
		for _, l := range b[e.b0:e.b1] {
			writeDiffLine(w, '+', l)
		}
		i = e.a1
	}
	for ; i < a1; i++ {
		writeDiffLine(w, ' ', a[i])
	}
}

// hunkRange is a hunk header's "START,COUNT", 1-based, with COUNT left out
// when it is 1 and START the line before when COUNT is 0.
func hunkRange(from, to int) string {
	switch to - from {
	case 0:
		return fmt.Sprintf("%d,0", from)
	case 1:
		return fmt.Sprint(from + 1)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}

func writeDiffLine(w io.Writer, mark byte, line string) {
	if strings.HasSuffix(line, "\n") {
		fmt.Fprintf(w, "%c%s", mark, line)
		return
	}
	fmt.Fprintf(w, "%c%s\n\\ No newline at end of file\n", mark, line)
}

// splitLines splits src after each "\n"; the last line may lack one.
func splitLines(src []byte) []string {
	var lines []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n') + 1
		if i == 0 {
			i = len(src)
		}
		lines = append(lines, string(src[:i]))
		src = src[i:]
	}
	return lines
}

// diffLines returns the edits of a shortest edit script from a to b
// (Myers' algorithm), in order, deletions before insertions where both
// orders are as short.
func diffLines(a, b []string) []edit {
	n, m := len(a), len(b)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		done := false
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				done = true
				break
			}
		}
		if done {
			break
		}
	}
	// Walk back through the trace: each step is one deletion or insertion
	// after a run of equal lines.
	type step struct{ x, y int } // the position before the step
	var dels, ins []step
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		// The step from (prevX, prevY) was down (b[prevY] inserted) or
		// right (a[prevX] deleted), followed by equal lines up to (x, y).
		if prevK == k+1 {
			ins = append(ins, step{prevX, prevY})
		} else {
			dels = append(dels, step{prevX, prevY})
		}
		x, y = prevX, prevY
	}
	// Mark deleted lines of a and inserted lines of b (with an unchanged
	// line before and after each), slide the runs of changes as diff
	// does, then group them.
	delA := make([]bool, n+2)
	insB := make([]bool, m+2)
	for _, s := range dels {
		delA[s.x+1] = true
	}
	for _, s := range ins {
		insB[s.y+1] = true
	}
	slideChanges(a, delA, insB)
	slideChanges(b, insB, delA)
	delA, insB = delA[1:n+1], insB[1:m+1]
	var edits []edit
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && !delA[i] && !insB[j] {
			i, j = i+1, j+1
			continue
		}
		e := edit{a0: i, b0: j}
		for i < n && delA[i] {
			i++
		}
		for j < m && insB[j] {
			j++
		}
		e.a1, e.b1 = i, j
		edits = append(edits, e)
	}
	return edits
}

// slideChanges moves each run of changed lines of lines, as far as equal
// lines allow, to where `diff` shows it: merged with the runs next to it,
// else beside a run of changes of the other file, else as late as
// possible. changed and other have an unchanged entry before and after
// the lines of their files (changed[i+1] is lines[i]'s).
func slideChanges(lines []string, changed, other []bool) {
	end := len(lines)
	eq := func(i, j int) bool { return lines[i] == lines[j] }
	ch := func(i int) bool { return changed[i+1] }
	set := func(i int, v bool) { changed[i+1] = v }
	oth := func(j int) bool { return other[j+1] }
	i, j := 0, 0
	for {
		// Find the next run, keeping j at the same point of the other file.
		for i < end && !ch(i) {
			for oth(j) {
				j++
			}
			j++
			i++
		}
		if i == end {
			return
		}
		start := i
		for i++; ch(i); i++ {
		}
		for oth(j) {
			j++
		}
		var corresponding int
		for {
			length := i - start
			// Up while the line before equals the run's last line.
			for start > 0 && eq(start-1, i-1) {
				start--
				set(start, true)
				i--
				set(i, false)
				for ch(start - 1) {
					start--
				}
				for j--; oth(j); j-- {
				}
			}
			corresponding = end
			if oth(j - 1) {
				corresponding = i
			}
			// Down while the run's first line equals the line after it.
			for i != end && eq(start, i) {
				set(start, false)
				start++
				set(i, true)
				i++
				for ch(i) {
					i++
				}
				for j++; oth(j); j++ {
					corresponding = i
				}
			}
			if length == i-start {
				break
			}
		}
		// Back up to line up with a run of changes of the other file.
		for corresponding < i {
			start--
			set(start, true)
			i--
			set(i, false)
			for j--; oth(j); j-- {
			}
		}
	}
}
