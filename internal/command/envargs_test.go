package command

import (
	"strings"
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
			got, ignored, err := shellWords(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("shellWords(%q) error = %v, want error %v", tt.in, err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shellWords(%q) (-want +got):\n%s", tt.in, diff)
			}
			if ignored != tt.ignored {
				t.Errorf("ignored = %q, want %q", ignored, tt.ignored)
			}
		})
	}
}

// TestEnvArgs places the words of TF_CLI_ARGS_NAME, then those of
// TF_CLI_ARGS, right after the command's name (the full name of a
// subcommand), before the arguments given.
func TestEnvArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"none set", []string{"plan", "-out=p"}, nil, []string{"plan", "-out=p"}},
		{"every command", []string{"plan", "-out=p"}, map[string]string{"TF_CLI_ARGS": "-input=false -no-color"},
			[]string{"plan", "-input=false", "-no-color", "-out=p"}},
		{"the command's first, then every command's",
			[]string{"plan", "-out=p"}, map[string]string{"TF_CLI_ARGS": "-no-color", "TF_CLI_ARGS_plan": "-lock-timeout=5s"},
			[]string{"plan", "-lock-timeout=5s", "-no-color", "-out=p"}},
		{"another command's are not used", []string{"apply"}, map[string]string{"TF_CLI_ARGS_plan": "-lock-timeout=5s"},
			[]string{"apply"}},
		{"subcommand", []string{"state", "list", "a.b"}, map[string]string{"TF_CLI_ARGS_state_list": "-state=x", "TF_CLI_ARGS_state": "-bogus"},
			[]string{"state", "list", "-state=x", "a.b"}},
		{"subcommand with a dash", []string{"force-unlock", "ID"}, map[string]string{"TF_CLI_ARGS_force_unlock": "-force"},
			[]string{"force-unlock", "-force", "ID"}},
		{"providers schema", []string{"providers", "schema"}, map[string]string{"TF_CLI_ARGS_providers_schema": "-json", "TF_CLI_ARGS_providers": "-x"},
			[]string{"providers", "schema", "-json"}},
		{"providers itself", []string{"providers", "-no-color"}, map[string]string{"TF_CLI_ARGS_providers": "-x"},
			[]string{"providers", "-x", "-no-color"}},
		{"unknown command", []string{"plna"}, map[string]string{"TF_CLI_ARGS": "-no-color"}, []string{"plna", "-no-color"}},
		{"help takes none", []string{"help", "plan"}, map[string]string{"TF_CLI_ARGS": "-no-color"}, []string{"help", "plan"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := envArgs(tt.args, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("envArgs (-want +got):\n%s", diff)
			}
		})
	}
	_, _, err := envArgs([]string{"plan"}, func(k string) string { return map[string]string{"TF_CLI_ARGS_plan": `-var "x`}[k] })
	if err == nil || err.Error() != "parsing extra CLI args from TF_CLI_ARGS_plan: invalid command line string" {
		t.Errorf("error = %v", err)
	}
	_, notes, _ := envArgs([]string{"plan"}, func(k string) string { return map[string]string{"TF_CLI_ARGS": `-no-color; echo`}[k] })
	if len(notes) != 1 || !strings.Contains(notes[0], `TF_CLI_ARGS: the text "; echo" was ignored`) {
		t.Errorf("notes = %q", notes)
	}
}

// TestLoggedArgs hides the values of -var and -backend-config settings.
func TestLoggedArgs(t *testing.T) {
	got := loggedArgs([]string{"plan", "-var", "password=hunter2", "-var=token=abc", "--var=x=y", "-backend-config=conn_str=postgres://u:p@h/db",
		"-backend-config", "backend.hcl", "-var-file=prod.tfvars", "-out=p", "--", "-var=kept"})
	want := []string{"plan", "-var", "password=(redacted)", "-var=token=(redacted)", "--var=x=(redacted)", "-backend-config=conn_str=(redacted)",
		"-backend-config", "backend.hcl", "-var-file=prod.tfvars", "-out=p", "--", "-var=kept"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loggedArgs (-want +got):\n%s", diff)
	}
}
