package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/ui"
)

// TestHelp checks that rig and every command and subcommand print their
// help on standard output and exit 0, however the help is asked for.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-help"}, {"-h"}, {"--help"}, {"help"}} {
		r := rig(t, dir, args...)
		if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "Usage: rig [global options] <subcommand> [args]") {
			t.Errorf("rig %s: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		for _, name := range subcommands("") {
			if !strings.Contains(r.stdout, "\n  "+name+" ") {
				t.Errorf("rig %s does not list %s", args, name)
			}
		}
	}
	golden(t, "help/rig", rig(t, dir, "-help").stdout)

	for name, c := range commands {
		words := strings.Fields(name)
		want := "Usage: rig [global options] " + name + " " + c.args + "\n\n"
		var help string
		for _, flag := range []string{"-help", "-h", "--help"} {
			r := rig(t, dir, append(slices.Clone(words), flag)...)
			if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, want) {
				t.Errorf("rig %s %s: exit %d, want 0 and %q\n%s%s", name, flag, r.code, want, r.stdout, r.stderr)
			}
			help = r.stdout
		}
		if c.about == "" || c.synopsis == "" || c.args == "" {
			t.Errorf("%s: synopsis, arguments or description missing", name)
		}
		if c.run != nil && !strings.Contains(help, "\nOptions:\n") {
			t.Errorf("rig %s -help lists no options:\n%s", name, help)
		}
		if c.run == nil && !strings.Contains(help, "\nSubcommands:\n") {
			t.Errorf("rig %s -help lists no subcommands:\n%s", name, help)
		}
		for _, line := range strings.Split(help, "\n") {
			if len(line) > ui.HelpWidth {
				t.Errorf("rig %s -help: line longer than %d: %q", name, ui.HelpWidth, line)
			}
		}
		// `rig help NAME` and `rig -help NAME` are the same help.
		for _, prefix := range []string{"help", "-help"} {
			if r := rig(t, dir, append([]string{prefix}, words...)...); r.code != 0 || r.stdout != help {
				t.Errorf("rig %s %s: exit %d, want the same help as rig %s -help\n%s%s", prefix, name, r.code, name, r.stdout, r.stderr)
			}
		}
		// Help comes also after a positional argument.
		if c.run != nil {
			if r := rig(t, dir, append(slices.Clone(words), "x", "-help")...); r.code != 0 || r.stdout != help {
				t.Errorf("rig %s x -help: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
			}
		}
	}
	for _, name := range []string{"plan", "apply", "state", "state show", "init", "output", "workspace new"} {
		golden(t, "help/"+strings.ReplaceAll(name, " ", "-"), rig(t, dir, append(strings.Fields(name), "-help")...).stdout)
	}
}

// TestHelpOfGroupWithoutSubcommand checks that a command with subcommands
// run without one prints its help on standard error and exits 1, as
// Terraform does.
func TestHelpOfGroupWithoutSubcommand(t *testing.T) {
	for _, name := range []string{"state", "workspace"} {
		r := rig(t, t.TempDir(), name)
		if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "Usage: rig [global options] "+name+" <subcommand>") {
			t.Errorf("rig %s: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
		}
	}
}

// TestMistyped checks the answers to a command, subcommand or flag rig
// does not know: what was not understood, the nearest name when one is
// near, and exit status 1.
func TestMistyped(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr, or with flag errors a part of it
		// wantHelp begins stdout, where the command prints its help after
		// the error ("" for none).
		wantHelp string
	}{
		{name: "command", args: []string{"plna"},
			want: "rig has no command named \"plna\". Did you mean \"plan\"?\n\nTo see all of rig's top-level commands, run:\n  rig -help\n"},
		{name: "command without a near one", args: []string{"frobnicate"},
			want: "rig has no command named \"frobnicate\".\n\nTo see all of rig's top-level commands, run:\n  rig -help\n"},
		{name: "subcommand", args: []string{"state", "lst"},
			want: "rig state has no subcommand named \"lst\". Did you mean \"list\"?\n\nTo see all of its subcommands, run:\n  rig state -help\n"},
		{name: "workspace subcommand", args: []string{"workspace", "nwe", "x"},
			want: "rig workspace has no subcommand named \"nwe\". Did you mean \"new\"?\n\nTo see all of its subcommands, run:\n  rig workspace -help\n"},
		{name: "global option", args: []string{"-chdr=x", "plan"},
			want: "Error: unknown global option \"-chdr=x\". Did you mean \"-chdir\"?\n\nGlobal options come before the command; to see them, run:\n  rig -help\n"},
		{name: "flag", args: []string{"plan", "-no-color", "-destroi"},
			want: "flag provided but not defined: -destroi\n\nDid you mean \"-destroy\"?\n\nFor more help on using this command, run:\n  rig plan -help\n"},
		{name: "flag after an argument", args: []string{"apply", "next.plan", "-no-color", "-auto-aprove"},
			want: "flag provided but not defined: -auto-aprove\n\nDid you mean \"-auto-approve\"?\n\nFor more help on using this command, run:\n  rig apply -help\n"},
		{name: "flag of a subcommand", args: []string{"state", "push", "-no-color", "-forse", "x"},
			want: "Did you mean \"-force\"?\n\n", wantHelp: "Usage: rig [global options] state push [options] PATH\n"},
		{name: "flag without a near one", args: []string{"output", "-no-color", "-frobnicate"},
			want: "Error: Failed to parse command-line flags\n\nflag provided but not defined: -frobnicate\n\nFor more help on using this command, run:\n  rig output -help\n"},
		{name: "bad flag value", args: []string{"plan", "-no-color", "-parallelism=0"},
			want: "invalid value \"0\" for flag -parallelism"},
		{name: "too many arguments", args: []string{"plan", "-no-color", "extra"},
			want: "Error: Too many command line arguments"},
		{name: "output arguments", args: []string{"output", "-no-color", "a", "b"},
			want: "Error: Unexpected argument\n\nThe output command expects exactly one argument with the name of an output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rig(t, t.TempDir(), tt.args...)
			if r.code != 1 || !strings.HasPrefix(r.stdout, tt.wantHelp) || (tt.wantHelp == "") != (r.stdout == "") || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("rig %s: exit %d, want 1 and stderr with %q\nstdout: %s\nstderr: %s", tt.args, r.code, tt.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestREADMEListsEveryCommand keeps README's list of commands true: every
// command and subcommand rig has is named in its Commands section.
func TestREADMEListsEveryCommand(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Commands\n")
	section, _, _ = strings.Cut(section, "\n## ")
	for name := range commands {
		words := strings.Fields(name)
		if !strings.Contains(section, "`"+words[0]) {
			t.Errorf("README's Commands section does not name %q", words[0])
		}
		if len(words) == 2 && !strings.Contains(section, words[1]) {
			t.Errorf("README's Commands section does not name %q", name)
		}
	}
}
