package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag of the tests that import this package: set,
// Check rewrites each golden file with what its test produced, and the
// tests rewrite their other expected outputs (txtar sections, screenshots)
// likewise.
var Update = updateFlag(flag.CommandLine)

// updateFlag returns the value of the -update flag of fs. When a package
// initialized before this one has defined it already (its own -update,
// for its own expected files), it is looked up rather than defined again,
// which would panic ("flag redefined"): the value returned follows that
// flag, and both rewrite their files. Else it defines it.
func updateFlag(fs *flag.FlagSet) *bool {
	f := fs.Lookup("update")
	if f == nil {
		return fs.Bool("update", false, "rewrite the golden files with what the tests produce")
	}
	v := &followedFlag{Value: f.Value, on: new(bool)}
	*v.on, _ = strconv.ParseBool(f.Value.String())
	f.Value = v
	return v.on
}

// followedFlag is a flag defined elsewhere whose boolean value, as it is
// set, is also kept in on.
type followedFlag struct {
	flag.Value
	on *bool
}

// Set sets the flag, and on to what it now says.
func (v *followedFlag) Set(s string) error {
	if err := v.Value.Set(s); err != nil {
		return err
	}
	*v.on, _ = strconv.ParseBool(v.Value.String())
	return nil
}

// IsBoolFlag says, as the flag package asks, whether the flag needs no
// value ("-update" alone): as the followed flag says.
func (v *followedFlag) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Check compares got with the golden file at path and reports the
// difference (-want +got). With -update it writes got to path instead,
// creating the directories it needs; a file already holding got is left
// as it is. A missing golden file fails the test, saying how to make it.
func Check[T ~string | ~[]byte](t testing.TB, path string, got T) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *Update {
		if err == nil && string(want) == string(got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("writing golden file: %v", err)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("writing golden file: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("reading golden file: %v (go test -update writes it)", err)
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the output (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}
