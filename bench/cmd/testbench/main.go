// Command testbench times "rig test" against "tofu test" (and "terraform
// test") on a generated suite of 200 run blocks over 20 files
// (bench/tofutest.GenerateSuite), once with the real random and local
// plugins and once with both mocked, alternating the tools in each round
// so that they are measured in the same minutes, and checks that they
// give the same outcomes:
//
//	go build -o /tmp/rig ./cmd/rig
//	go run ./bench/cmd/testbench -rig /tmp/rig -tofu /path/to/tofu \
//	  -mirror "$RIG_TEST_PROVIDER_MIRROR" -rounds 3
//
// It imports bench/tofutest.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rig-iac/rig/bench/tofutest"
)

func main() {
	rig := flag.String("rig", "", "the rig executable")
	tofu := flag.String("tofu", "", "the tofu executable")
	terraform := flag.String("terraform", "", "the terraform executable (optional)")
	mirror := flag.String("mirror", "", "the filesystem mirror holding hashicorp/random and hashicorp/local")
	files := flag.Int("files", 20, "test files")
	runs := flag.Int("runs", 10, "run blocks per file")
	rounds := flag.Int("rounds", 2, "rounds (each tool once per round)")
	variants := flag.String("variants", "real,mocked", "which suites: real, mocked or both")
	flag.Parse()
	if *rig == "" || *tofu == "" || *mirror == "" {
		fmt.Fprintln(os.Stderr, "usage: testbench -rig RIG -tofu TOFU [-terraform TERRAFORM] -mirror DIR [-files N] [-runs N] [-rounds N]")
		os.Exit(2)
	}
	tools := []tofutest.Tool{{Name: "rig", Path: *rig}, {Name: "tofu", Path: *tofu}}
	if *terraform != "" {
		tools = append(tools, tofutest.Tool{Name: "terraform", Path: *terraform})
	}
	work, err := os.MkdirTemp("", "testbench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	fmt.Printf("# %d files x %d runs, %d rounds\n", *files, *runs, *rounds)
	for _, variant := range strings.Split(*variants, ",") {
		dir := filepath.Join(work, variant)
		if err := tofutest.GenerateSuite(dir, tofutest.SuiteOptions{Files: *files, Runs: *runs, Mocked: variant == "mocked"}); err != nil {
			fail(err)
		}
		times := map[string][]time.Duration{}
		var reference tofutest.Outcomes
		for round := range *rounds {
			for i := range tools {
				// Alternate which tool goes first.
				tool := tools[(i+round)%len(tools)]
				res, err := tofutest.RunFixture(context.Background(), tool, dir, nil,
					tofutest.Options{Mirror: *mirror, Init: true, Timeout: 30 * time.Minute})
				if err != nil {
					fail(err)
				}
				if n := countRuns(res.Outcomes); n != *files**runs || res.ExitCode != 0 {
					fmt.Fprintf(os.Stderr, "%s %s: %d runs reported, exit %d\n%s\n", variant, tool.Name, n, res.ExitCode, tail(res.Output))
				}
				if reference == nil {
					reference = res.Outcomes
				} else if d := tofutest.Diff(reference, res.Outcomes); len(d) > 0 {
					fmt.Fprintf(os.Stderr, "%s %s: outcomes differ: %v\n", variant, tool.Name, d[:min(len(d), 5)])
				}
				times[tool.Name] = append(times[tool.Name], res.Elapsed)
			}
		}
		for _, tool := range tools {
			ts := times[tool.Name]
			slices.Sort(ts)
			fmt.Printf("%-7s %-10s median %7.2fs  min %7.2fs  max %7.2fs\n", variant, tool.Name, ts[len(ts)/2].Seconds(), ts[0].Seconds(), ts[len(ts)-1].Seconds())
		}
	}
}

func countRuns(o tofutest.Outcomes) int {
	n := 0
	for _, f := range o {
		n += len(f)
	}
	return n
}

func tail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
