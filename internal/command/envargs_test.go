package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/cliargs"
)

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
			got, _, err := cliargs.EnvArgs(tt.args, isCommand, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("envArgs (-want +got):\n%s", diff)
			}
		})
	}
	_, _, err := cliargs.EnvArgs([]string{"plan"}, isCommand, func(k string) string { return map[string]string{"TF_CLI_ARGS_plan": `-var "x`}[k] })
	if err == nil || err.Error() != "parsing extra CLI args from TF_CLI_ARGS_plan: invalid command line string" {
		t.Errorf("error = %v", err)
	}
	_, notes, _ := cliargs.EnvArgs([]string{"plan"}, isCommand, func(k string) string { return map[string]string{"TF_CLI_ARGS": `-no-color; echo`}[k] })
	if len(notes) != 1 || !strings.Contains(notes[0], `TF_CLI_ARGS: the text "; echo" was ignored`) {
		t.Errorf("notes = %q", notes)
	}
}
