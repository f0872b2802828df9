// Command testcompare runs "rig test" and "tofu test" (or "terraform
// test") on every fixture of a directory and compares their outcomes run
// block by run block, and their exit statuses:
//
//	go build -o /tmp/rig ./cmd/rig
//	go build -o /tmp/fixprov/terraform-provider-test ./internal/provider/plugin/testdata/fixtureprovider
//	go run ./bench/cmd/testcompare -rig /tmp/rig -tofu /path/to/tofu -provider /tmp/fixprov DIR
//
// DIR holds one fixture per subdirectory (OpenTofu's
// internal/command/testdata/test, or internal/command/testdata/testfixtures)
// or is a fixture itself. A fixture's test is run with the arguments its
// file testcompare.args lists (one a line), else those OpenTofu's own tests
// give it (variants.go). -provider names the directory of the plugin that
// serves OpenTofu's fixture schema as hashicorp/test to both tools.
//
// -record writes each fixture's outcomes under the reference tool into its
// outcomes.txt (for the fixture tests of internal/command, which run rig
// alone), instead of comparing.
//
// It imports bench/tofutest.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rig-iac/rig/bench/tofutest"
)

func main() {
	rig := flag.String("rig", "", "the rig executable")
	ref := flag.String("tofu", "", "the reference executable: tofu, or terraform")
	providerDir := flag.String("provider", "", "the directory of terraform-provider-test (internal/provider/plugin/testdata/fixtureprovider)")
	mirror := flag.String("mirror", "", "a filesystem mirror to install the real providers the fixtures require from (RIG_TEST_PROVIDER_MIRROR)")
	only := flag.String("only", "", "comma-separated fixture names to run (default all)")
	record := flag.Bool("record", false, "write each fixture's outcomes under -tofu into its outcomes.txt instead of comparing")
	verbose := flag.Bool("v", false, "print the outputs of fixtures that differ")
	junit := flag.Bool("junit", false, "compare the JUnit XML reports' outlines too (Terraform writes them; OpenTofu does not), or record the reference's in junit.txt")
	flag.Parse()
	if flag.NArg() != 1 || *ref == "" || (*rig == "" && !*record) {
		fmt.Fprintln(os.Stderr, "usage: testcompare -rig RIG -tofu TOFU [-provider DIR] [-only NAMES] [-record] [-v] DIR")
		os.Exit(2)
	}
	fixtures, err := findFixtures(flag.Arg(0), *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	opts := tofutest.Options{ProviderDir: *providerDir, Mirror: *mirror, Init: true, JUnit: *junit}
	refTool := tofutest.Tool{Name: filepath.Base(*ref), Path: *ref}
	rigTool := tofutest.Tool{Name: "rig", Path: *rig}
	ctx := context.Background()
	same, differ := 0, 0
	for _, fx := range fixtures {
		want, err := tofutest.RunFixture(ctx, refTool, fx.dir, fx.args, opts)
		if err != nil {
			fmt.Printf("%-50s ERROR %s: %v\n", fx.name, refTool.Name, err)
			continue
		}
		if *record {
			path := filepath.Join(fx.dir, "outcomes.txt")
			body := fmt.Sprintf("# %s test %s: exit %d\n%s", refTool.Name, strings.Join(fx.args, " "), want.ExitCode, want.Outcomes)
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if *junit {
				shape, err := tofutest.JUnitShape(want.JUnit)
				if err == nil {
					err = os.WriteFile(filepath.Join(fx.dir, "junit.txt"), []byte(shape), 0o644)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
			}
			fmt.Printf("%-50s recorded (%d files)\n", fx.name, len(want.Outcomes))
			continue
		}
		got, err := tofutest.RunFixture(ctx, rigTool, fx.dir, fx.args, opts)
		if err != nil {
			fmt.Printf("%-50s ERROR rig: %v\n", fx.name, err)
			continue
		}
		diffs := tofutest.Diff(want.Outcomes, got.Outcomes)
		if *junit {
			ws, werr := tofutest.JUnitShape(want.JUnit)
			gs, gerr := tofutest.JUnitShape(got.JUnit)
			switch {
			case werr != nil || gerr != nil:
				diffs = append(diffs, fmt.Sprintf("JUnit XML: %v %v", werr, gerr))
			case ws != gs:
				diffs = append(diffs, fmt.Sprintf("JUnit XML outline:\n--- %s\n%s--- rig\n%s", refTool.Name, ws, gs))
			}
		}
		if (want.ExitCode == 0) != (got.ExitCode == 0) {
			diffs = append(diffs, fmt.Sprintf("exit status: %s %d, rig %d", refTool.Name, want.ExitCode, got.ExitCode))
		}
		runs := 0
		for _, f := range want.Outcomes {
			runs += len(f)
		}
		if len(diffs) == 0 {
			same++
			fmt.Printf("%-50s same    %2d runs  exit %d  %s %6.2fs  rig %6.2fs\n", fx.name, runs, got.ExitCode, refTool.Name, want.Elapsed.Seconds(), got.Elapsed.Seconds())
			continue
		}
		differ++
		fmt.Printf("%-50s DIFFERS\n", fx.name)
		for _, d := range diffs {
			fmt.Printf("    %s\n", d)
		}
		if *verbose {
			fmt.Printf("  --- %s\n%s  --- rig\n%s", refTool.Name, indent(want.Output), indent(got.Output))
		}
	}
	if !*record {
		fmt.Printf("\n%d fixtures: %d same, %d differ\n", same+differ, same, differ)
	}
}

type fixture struct {
	name string
	dir  string
	args []string
}

// findFixtures lists the fixtures of root (or root itself), with the
// variants that run a fixture with other arguments.
func findFixtures(root, only string) ([]fixture, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	hasConfig := false
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		} else if strings.HasSuffix(e.Name(), ".tf") || strings.Contains(e.Name(), "test.hcl") {
			hasConfig = true
		}
	}
	if hasConfig {
		dirs = []string{root}
	}
	sort.Strings(dirs)
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var out []fixture
	for _, dir := range dirs {
		name := filepath.Base(dir)
		args, err := argsFile(dir)
		if err != nil {
			return nil, err
		}
		own := args != nil
		if !own {
			args = fixtureArgs[name]
		}
		if len(want) == 0 || want[name] {
			out = append(out, fixture{name: name, dir: dir, args: args})
		}
		if own {
			// A fixture with its own arguments has no variants.
			continue
		}
		for _, v := range variants[name] {
			if len(want) == 0 || want[name] || want[v.name] {
				out = append(out, fixture{name: v.name, dir: dir, args: v.args})
			}
		}
	}
	return out, nil
}

// argsFile reads a fixture's testcompare.args; nil when it has none.
func argsFile(dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "testcompare.args"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	args := []string{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			args = append(args, l)
		}
	}
	return args, nil
}

func indent(b []byte) string {
	var s strings.Builder
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		s.WriteString("    " + l + "\n")
	}
	return s.String()
}
