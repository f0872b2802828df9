package cliargs

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// TestAddCompatFlags: the options a command does not define are accepted,
// the refused ones recorded once each with their reason, the stream ones
// recorded, and -var left to the command.
func TestAddCompatFlags(t *testing.T) {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var vars []string
	given := AddCompatFlags(fs, func(fs *flag.FlagSet) {
		fs.Func("var", "", func(s string) error { vars = append(vars, s); return nil })
		fs.Func("var-file", "", func(s string) error { return nil })
	})
	if err := fs.Parse([]string{"-draw-cycles", "-verbose", "-module-depth=2", "-var=a=1", "-draw-cycles"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(given.Refused, []string{"draw-cycles"}) || given.Streamed {
		t.Errorf("got %+v, want -draw-cycles refused once and no stream", given)
	}
	if !slices.Equal(vars, []string{"a=1"}) {
		t.Errorf("-var: got %q", vars)
	}
	if reason := RefusedReason("graph", "draw-cycles"); reason == "" || reason != CompatFlags("graph")[0].Usage {
		t.Errorf("the reason of -draw-cycles: %q", reason)
	}

	fs = flag.NewFlagSet("state rm", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("lock", true, "")
	given = AddCompatFlags(fs, func(fs *flag.FlagSet) { fs.String("var", "", ""); fs.String("var-file", "", "") })
	if err := fs.Parse([]string{"-json-into=out.json", "-ignore-remote-version"}); err != nil {
		t.Fatal(err)
	}
	if !given.Streamed || given.JSON || given.Into != "out.json" || len(given.Refused) > 0 {
		t.Errorf("got %+v, want the stream into out.json", given)
	}
}
