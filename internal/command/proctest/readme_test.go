package proctest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// repoRoot is the checkout this package is in.
const repoRoot = "../../.."

// tourStep is one command of the README, as a newcomer types it, with the
// comment the README gives it.
type tourStep struct {
	line, comment string
}

// readmeTour returns the README's quickstart command (the first line of its
// first code block) and every command of the code blocks of its "A short
// tour" section, in order.
func readmeTour(t *testing.T) []tourStep {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []tourStep
	add := func(line string) {
		cmd, comment, _ := strings.Cut(line, "   #")
		if c := strings.TrimSpace(cmd); c != "" {
			steps = append(steps, tourStep{line: c, comment: strings.TrimSpace(comment)})
		}
	}
	blocks := codeBlocks(string(data))
	if len(blocks) == 0 || len(blocks[0].lines) == 0 {
		t.Fatal("the README has no code block")
	}
	add(blocks[0].lines[0])
	tour := 0
	for _, b := range blocks {
		if b.section != "A short tour" {
			continue
		}
		tour++
		for _, l := range b.lines {
			add(l)
		}
	}
	if tour == 0 {
		t.Fatal(`the README has no code block under "## A short tour"`)
	}
	return steps
}

// codeBlock is a ```sh block of a Markdown document and the title of the
// "##" section it is in.
type codeBlock struct {
	section string
	lines   []string
}

func codeBlocks(doc string) []codeBlock {
	var blocks []codeBlock
	section := ""
	var cur *codeBlock
	for _, l := range strings.Split(doc, "\n") {
		switch {
		case cur != nil && strings.HasPrefix(l, "```"):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		case l == "```sh":
			cur = &codeBlock{section: section}
		case strings.HasPrefix(l, "## "):
			section = strings.TrimPrefix(l, "## ")
		}
	}
	return blocks
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestReadmeTour follows the README as a newcomer does, in order, in a
// fresh copy of the examples: the quickstart command first, then every
// command of the tour (go build and go run stand for the rig binary built
// once). Each must succeed, and the steps whose comments promise a result
// must show it.
func TestReadmeTour(t *testing.T) {
	bin := commandtest.BuildRig(t)
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "examples"), os.DirFS(filepath.Join(repoRoot, "examples"))); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"terraform.tfstate", "terraform.tfstate.backup", ".terraform", "next.plan", "graph.svg"} {
		for _, ex := range []string{"quickstart", "modules"} {
			os.RemoveAll(filepath.Join(root, "examples", ex, name))
		}
	}
	if err := copyFile(bin, filepath.Join(root, "rig")); err != nil {
		t.Fatal(err)
	}

	dir := root
	steps := readmeTour(t)
	for i, s := range steps {
		line := s.line
		switch {
		case line == "go build -o rig ./cmd/rig":
			continue // the binary is in place
		case strings.HasPrefix(line, "go run ./cmd/rig "):
			line = "./rig " + strings.TrimPrefix(line, "go run ./cmd/rig ")
		case strings.HasPrefix(line, "cd "):
			next := filepath.Join(dir, strings.TrimPrefix(line, "cd "))
			if fi, err := os.Stat(next); err != nil || !fi.IsDir() {
				t.Fatalf("step %d, %q: no directory %s", i+1, s.line, next)
			}
			dir = next
			continue
		}
		cmd := exec.Command("bash", "-c", line)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		text := ansiEscape.ReplaceAllString(out.String(), "")
		if err != nil {
			t.Fatalf("step %d, %q in %s: %v\n%s", i+1, s.line, dir, err, text)
		}
		checkTourStep(t, i+1, s, dir, text)
	}
}

// checkTourStep checks what the README's comment on a step promises.
func checkTourStep(t *testing.T, n int, s tourStep, dir, out string) {
	t.Helper()
	want := func(ok bool, what string) {
		t.Helper()
		if !ok {
			t.Errorf("step %d, %q (%s): %s\n%s", n, s.line, s.comment, what, out)
		}
	}
	switch {
	case strings.HasPrefix(s.comment, "what would be created"):
		want(regexp.MustCompile(`Plan: [1-9]\d* to add, 0 to change, 0 to destroy`).MatchString(out), "the plan creates nothing")
		want(strings.Contains(out, "Order of operations:"), "no order of operations")
	case strings.Contains(s.line, "-detailed-exitcode"):
		want(strings.Contains(out, "No changes."), `no "No changes."`)
	case strings.Contains(s.comment, "create_before_destroy"):
		want(strings.Contains(out, "create replacement and then destroy"), "no create-first replacement")
	case strings.Contains(s.line, "-format=svg"):
		svg, err := os.ReadFile(filepath.Join(dir, "graph.svg"))
		want(err == nil && bytes.HasPrefix(svg, []byte("<svg")), "no SVG written")
	case strings.Contains(s.comment, "destroyed") && strings.Contains(s.comment, "created"):
		want(strings.Contains(out, "will be destroyed") && strings.Contains(out, "will be created"), "nothing destroyed and created")
	}
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}
