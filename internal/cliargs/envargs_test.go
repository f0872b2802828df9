package cliargs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShellWords splits TF_CLI_ARGS values as Terraform and OpenTofu do
// (mattn/go-shellwords without expansion).
func TestShellWords(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		ignored  string
		err      bool
	}{
		{name: "empty", in: "", want: nil},
		{name: "blanks", in: " \t-input=false \n -no-color  ", want: []string{"-input=false", "-no-color"}},
		{name: "double quotes", in: `-var "name=a b"`, want: []string{"-var", "name=a b"}},
		{name: "quotes inside a word", in: `-var=name="a b"c`, want: []string{"-var=name=a bc"}},
		{name: "single quotes are literal", in: `-var 'x=$HOME \n "q"'`, want: []string{"-var", `x=$HOME \n "q"`}},
		{name: "backslash escapes", in: `a\ b c\"d "e\"f" "g\\h"`, want: []string{"a b", `c"d`, `e"f`, `g\h`}},
		{name: "empty quotes are a word", in: `-var x= "" ''`, want: []string{"-var", "x=", "", ""}},
		{name: "variables are not expanded", in: `-var=x=$HOME`, want: []string{"-var=x=$HOME"}},
		{name: "backquotes kept", in: "-var=x=`a b` c", want: []string{"-var=x=`a b`", "c"}},
		{name: "dollar parentheses kept", in: "-var=x=$(a b) c", want: []string{"-var=x=$(a b)", "c"}},
		{name: "semicolon ends the words", in: "-input=false; rm -rf /", want: []string{"-input=false"}, ignored: "; rm -rf /"},
		{name: "pipe ends the words", in: "-no-color|x", want: []string{"-no-color"}, ignored: "|x"},
		{name: "quoted operators are kept", in: `"a;b" 'c|d' e\>f`, want: []string{"a;b", "c|d", "e>f"}},
		{name: "unterminated double quote", in: `-var "x=1`, err: true},
		{name: "unterminated single quote", in: `-var 'x=1`, err: true},
		{name: "trailing backslash", in: `-var x\`, err: true},
		{name: "bare parenthesis", in: `-var (x)`, err: true},
		{name: "unterminated backquote", in: "-var `x", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ignored, err := ShellWords(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("ShellWords(%q) error = %v, want error %v", tt.in, err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ShellWords(%q) (-want +got):\n%s", tt.in, diff)
			}
			if ignored != tt.ignored {
				t.Errorf("ignored = %q, want %q", ignored, tt.ignored)
			}
		})
	}
}

// TestLoggedArgs hides the values of -var and -backend-config settings.
func TestLoggedArgs(t *testing.T) {
	got := Logged([]string{"plan", "-var", "password=hunter2", "-var=token=abc", "--var=x=y", "-backend-config=conn_str=postgres://u:p@h/db",
		"-backend-config", "backend.hcl", "-var-file=prod.tfvars", "-out=p", "--", "-var=kept"})
	want := []string{"plan", "-var", "password=(redacted)", "-var=token=(redacted)", "--var=x=(redacted)", "-backend-config=conn_str=(redacted)",
		"-backend-config", "backend.hcl", "-var-file=prod.tfvars", "-out=p", "--", "-var=kept"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loggedArgs (-want +got):\n%s", diff)
	}
}
