package command

import (
	"strings"
	"testing"
)

// After a command line it cannot run (an unknown option, arguments too
// many or too few), each command prints what OpenTofu 1.12.6's does: its
// whole help on standard output, or a pointer to it after the error on
// standard error; exit 1 either way. The table is what OpenTofu printed for
// each command.
func TestUsageErrorHelp(t *testing.T) {
	const help, pointer = "help", "pointer"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"init", "-bogus"}, help},
		{[]string{"init", "x"}, help},
		{[]string{"validate", "-bogus"}, pointer},
		{[]string{"validate", "a", "b"}, pointer},
		{[]string{"plan", "-bogus"}, pointer},
		{[]string{"plan", "x", "y"}, pointer},
		{[]string{"apply", "-bogus"}, pointer},
		{[]string{"destroy", "-bogus"}, pointer},
		{[]string{"refresh", "-bogus"}, pointer},
		{[]string{"output", "a", "b"}, pointer},
		{[]string{"show", "-bogus"}, pointer},
		{[]string{"show", "a", "b"}, pointer},
		{[]string{"test", "-bogus"}, pointer},
		{[]string{"console", "-bogus"}, help},
		{[]string{"console", "x"}, help},
		{[]string{"fmt", "-bogus"}, help},
		{[]string{"force-unlock", "-bogus"}, help},
		{[]string{"force-unlock"}, help},
		{[]string{"get", "x"}, help},
		{[]string{"graph", "x"}, help},
		{[]string{"import", "a"}, help},
		{[]string{"login", "a", "b"}, help},
		{[]string{"logout", "-bogus"}, help},
		{[]string{"metadata", "functions", "-bogus"}, help},
		{[]string{"providers", "x"}, help},
		{[]string{"providers", "lock", "-bogus"}, help},
		{[]string{"providers", "mirror"}, help},
		{[]string{"providers", "schema"}, help},
		{[]string{"state", "list", "-bogus"}, help},
		{[]string{"state", "mv", "a"}, help},
		{[]string{"state", "pull", "x"}, help},
		{[]string{"state", "push"}, help},
		{[]string{"state", "replace-provider", "a"}, help},
		{[]string{"state", "rm"}, help},
		{[]string{"state", "show"}, help},
		{[]string{"taint"}, help},
		{[]string{"untaint"}, help},
		{[]string{"version", "-bogus"}, help},
		{[]string{"workspace", "list", "x"}, help},
		{[]string{"workspace", "new"}, help},
		{[]string{"workspace", "select"}, help},
		{[]string{"workspace", "delete"}, help},
		{[]string{"workspace", "show", "x"}, help},
	}
	dir := workDir(t, map[string]string{"main.tf": ""})
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if r.code != 1 || !strings.HasPrefix(r.stderr, "\nError: ") {
				t.Fatalf("exit %d, want 1 after an error\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			name := tt.args[0]
			if len(tt.args) > 1 && !strings.HasPrefix(tt.args[1], "-") && commands[name+" "+tt.args[1]].run != nil {
				name += " " + tt.args[1]
			}
			pointed := strings.HasSuffix(r.stderr, "\nFor more help on using this command, run:\n  rig "+name+" -help\n")
			helped := strings.HasPrefix(r.stdout, "Usage: rig [global options] "+name+" ")
			switch {
			case tt.want == help && (!helped || pointed):
				t.Errorf("want the help on stdout and no pointer\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			case tt.want == pointer && (!pointed || r.stdout != ""):
				t.Errorf("want the pointer to the help on stderr and nothing on stdout\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
		})
	}
}

// The details of a wrong number of arguments are OpenTofu's words.
func TestArgumentCountWording(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": ""})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"state", "show"}, "\nError: Invalid number of arguments\n\nExactly one argument expected\n\n"},
		{[]string{"taint"}, "\nError: Invalid arguments\n\nThe taint command expects exactly one argument.\n\n"},
		{[]string{"untaint"}, "\nError: Invalid arguments\n\nThe untaint command expects exactly one argument.\n\n"},
		{[]string{"init", "x"}, "\nError: Unexpected argument\n\nToo many command line arguments. Did you mean to use -chdir?\n\n"},
		{[]string{"state", "pull", "x"}, "\nError: Unexpected argument\n\nToo many command line arguments. Did you mean to use -chdir?\n\n"},
		{[]string{"workspace", "show", "x"}, "\nError: Unexpected argument\n\nToo many command line arguments. Did you mean to use -chdir?\n\n"},
		{[]string{"plan", "x"}, "\nError: Too many command line arguments\n\nTo specify a working directory for the plan, use the global -chdir flag.\n\nFor more help on using this command, run:\n  rig plan -help\n"},
		{[]string{"refresh", "x"}, "\nError: Too many command line arguments\n\nExpected at most one positional argument.\n\nFor more help on using this command, run:\n  rig refresh -help\n"},
		{[]string{"validate", "x", "y"}, "\nError: Too many command line arguments\n\nExpected at most one positional argument.\n\nFor more help on using this command, run:\n  rig validate -help\n"},
		{[]string{"providers", "schema", "-json", "x"}, "\nError: Too many command line arguments\n\nExpected at most zero positional arguments.\n"},
	} {
		if r := rig(t, dir, append(tt.args, "-no-color")...); r.code != 1 || r.stderr != tt.want {
			t.Errorf("rig %s: exit %d\n%q\nwant\n%q", strings.Join(tt.args, " "), r.code, r.stderr, tt.want)
		}
	}
}

// With -json read before the mistake, a command whose -json is a stream of
// messages reports the errors of its command line as messages on stdout,
// without its help, as OpenTofu does; one whose -json prints a document
// reports them as without it.
func TestUsageErrorWithJSON(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": ""})
	for _, args := range [][]string{{"init", "-json", "-bogus"}, {"state", "list", "-json", "-bogus"}, {"get", "-json", "x"}, {"plan", "-json", "x"}} {
		r := rig(t, dir, args...)
		if r.code != 1 || r.stderr != "" || !strings.Contains(r.stdout, `"type":"version"`) || !strings.Contains(r.stdout, `"type":"diagnostic"`) || strings.Contains(r.stdout, "Usage:") {
			t.Errorf("rig %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{{"init", "-bogus", "-json"}, {"output", "-json", "a", "b"}, {"show", "-json", "a", "b"}} {
		r := rig(t, dir, append(args, "-no-color")...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "\nError: ") || strings.Contains(r.stdout, `"type":"diagnostic"`) {
			t.Errorf("rig %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}
