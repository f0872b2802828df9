package cliargs

import (
	"errors"
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := map[string]struct {
		args       []string
		out        string
		color      bool
		positional []string
		err        error
	}{
		"flags after a positional argument": {args: []string{"next.plan", "-no-color"}, positional: []string{"next.plan"}},
		"a flag's value is the flag's":      {args: []string{"-out", "next.plan", "x"}, out: "next.plan", color: true, positional: []string{"x"}},
		"-- ends the flags":                 {args: []string{"a", "--", "-no-color", "b"}, color: true, positional: []string{"a", "-no-color", "b"}},
		"positional arguments keep order":   {args: []string{"a", "-out=o", "b", "-no-color", "c"}, out: "o", positional: []string{"a", "b", "c"}},
		"help":                              {args: []string{"a", "-help"}, color: true, err: flag.ErrHelp},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fs := flag.NewFlagSet("plan", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			out := fs.String("out", "", "")
			color := true
			fs.Var(NewBool(func(on bool) { color = !on }, nil), "no-color", "")
			err := Parse(fs, tc.args)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if *out != tc.out || color != tc.color || !slices.Equal(fs.Args(), tc.positional) {
				t.Errorf("got -out=%q color=%v args %q, want %q %v %q", *out, color, fs.Args(), tc.out, tc.color, tc.positional)
			}
		})
	}
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := Parse(fs, []string{"x", "-nope"}); err == nil || err.Error() != "flag provided but not defined: -nope" {
		t.Errorf("an unknown flag: %v", err)
	}
}
