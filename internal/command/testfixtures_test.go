package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/bench/tofutest"
)

// compareTestFixtures runs `rig test`, as the binary bin, on each fixture
// directory pattern matches (at least atLeast of them), one subtest each,
// with the fixture's own arguments (testcompare.args, when it has one) and
// opts, and checks that every run block has the outcome the fixture's
// outcomes.txt records. check, when not nil, checks more of what rig gave
// on the fixture, given that file. A fixture's copy kept by opts.Keep is removed once
// checked; the output is logged when a fixture fails.
func compareTestFixtures(t *testing.T, bin, pattern string, atLeast int, opts tofutest.Options, check func(t *testing.T, fixture string, recorded []byte, got *tofutest.Result)) {
	t.Helper()
	dirs, _ := filepath.Glob(pattern)
	if len(dirs) < atLeast {
		t.Fatalf("%d fixtures", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "outcomes.txt"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tofutest.ParseOutcomesFile(src)
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			if b, err := os.ReadFile(filepath.Join(dir, "testcompare.args")); err == nil {
				args = strings.Fields(string(b))
			}
			got, err := tofutest.RunFixture(context.Background(), tofutest.Tool{Name: "rig", Path: bin}, dir, args, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Dir != "" {
				defer os.RemoveAll(filepath.Dir(got.Dir))
			}
			for _, d := range tofutest.Diff(want, got.Outcomes) {
				t.Error(d)
			}
			if check != nil {
				check(t, dir, src, got)
			}
			if t.Failed() {
				t.Logf("output:\n%s", got.Output)
			}
		})
	}
}
