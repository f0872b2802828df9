package command

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleValues are values each option accepts, for the options that check
// theirs; any other option is given "true".
var sampleValues = map[string]string{
	"deprecation": "module:all", "parallelism": "2", "lockfile": "readonly", "platform": "linux_amd64",
	"lock-timeout": "1s", "type": "plan", "module-depth": "1", "limit": "a=1", "backend-config": "k=v",
	"var": "a=b", "format": "dot", "run-parallelism": "2",
}

// compatInventory reads testdata/compat/flags.txt: each command of
// Terraform 1.11 and OpenTofu 1.12 with its options.
func compatInventory(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "compat", "flags.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cmd, flags, _ := strings.Cut(line, ":")
		for _, fl := range strings.Fields(flags) {
			out[cmd] = append(out[cmd], strings.TrimPrefix(fl, "-"))
		}
	}
	return out
}

// Every option Terraform 1.11 or OpenTofu 1.12 takes is one rig knows:
// given with -help, the command shows its help rather than "flag provided
// but not defined". The options rig refuses say why, and fail.
func TestEveryTerraformAndOpenTofuOptionIsKnown(t *testing.T) {
	dir := t.TempDir()
	inventory := compatInventory(t)
	if len(inventory) < 30 {
		t.Fatalf("the inventory lists %d commands", len(inventory))
	}
	for cmd, flags := range inventory {
		words := strings.Fields(cmd)
		for _, name := range flags {
			// A switch takes "true", and so does an option with a value
			// it does not check; the others get a value they accept.
			value := sampleValues[name]
			if value == "" {
				value = "true"
			}
			arg := "-" + name + "=" + value
			r := rig(t, dir, append(append([]string(nil), words...), arg, "-help")...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: rig [global options] "+cmd) {
				t.Errorf("rig %s %s: exit %d, not the help\n%s%s", cmd, arg, r.code, r.stdout, r.stderr)
			}
		}
	}
}

// The refused options and commands fail with their reason; the accepted
// ones run.
func TestRefusedAndIgnoredOptions(t *testing.T) {
	// x.tfvars is there for -var-file, which validate reads as OpenTofu does.
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}` + "\n", "x.tfvars": ""})
	refused := []struct {
		args []string
		want string
	}{
		{[]string{"graph", "-draw-cycles"}, "the \"Cycle:\" error lists each edge"},
		{[]string{"console", "-json"}, "-json-into writes each result"},
		{[]string{"destroy", "-destroy"}, "always runs in destroy mode"},
		{[]string{"refresh", "-destroy"}, "use \"rig destroy\""},
		{[]string{"test", "-cloud-run=app.terraform.io/org/mod/aws"}, "no HCP Terraform"},
		{[]string{"test", "-allow-deferral"}, "experiment of Terraform"},
		{[]string{"init", "-enable-pluggable-state-storage-experiment"}, "experiment of Terraform"},
		{[]string{"push"}, "removed from Terraform in 0.12"},
		{[]string{"internal-plugin"}, "built into early Terraform"},
	}
	for _, tc := range refused {
		r := rig(t, dir, append(tc.args, "-no-color")...)
		if r.code != 1 || !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), tc.want) {
			t.Errorf("rig %s: exit %d, want 1 and %q\n%s", strings.Join(tc.args, " "), r.code, tc.want, r.stderr)
		}
	}
	accepted := [][]string{
		{"validate", "-no-tests", "-var=a=1", "-var-file=x.tfvars"},
		{"validate", "-test-directory=checks"},
		{"providers", "-test-directory=checks"},
		{"test", "-repair"},
		{"init", "-ignore-remote-version", "-var=a=1"},
		{"graph", "-module-depth=2", "-verbose"},
		{"plan", "-compact-warnings", "-concise", "-consolidate-errors", "-consolidate-warnings=false", "-deprecation=module:local"},
		{"refresh", "-refresh-only"},
		{"state", "list", "-var=a=1"},
		{"providers", "lock", "-enable-plugin-cache"},
		{"providers", "lock", "-test-directory=tests"},
	}
	for _, args := range accepted {
		if r := rig(t, dir, append(args, "-no-color")...); r.code != 0 {
			t.Errorf("rig %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// OpenTofu's aliases run the commands they stand for; env warns that it
// is deprecated.
func TestCommandAliases(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}
resource "terraform_data" "b" {}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if r := rig(t, dir, "state", "ls"); r.code != 0 || r.stdout != "terraform_data.a\nterraform_data.b\n" {
		t.Errorf("state ls: exit %d %q", r.code, r.stdout)
	}
	if r := rig(t, dir, "state", "move", "terraform_data.a", "terraform_data.c"); r.code != 0 {
		t.Errorf("state move: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "remove", "terraform_data.c"); r.code != 0 {
		t.Errorf("state remove: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "list"); r.stdout != "terraform_data.b\n" {
		t.Errorf("after the aliases: %q", r.stdout)
	}
	r := rig(t, dir, "env", "list", "-no-color")
	if r.code != 0 || r.stderr != "" || !strings.HasSuffix(r.stdout, "* default\n\n") || !strings.Contains(r.stdout, `The "rig env" family of commands is deprecated`) {
		t.Errorf("env list: exit %d %q\n%s", r.code, r.stdout, r.stderr)
	}
}

// The commands without a plan write their lines as the JSON stream with
// -json, or into a file with -json-into beside the human output.
func TestJSONStreamOfSimpleCommands(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}` + "\n"})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	r := rig(t, dir, "taint", "-json", "terraform_data.a")
	if r.code != 0 {
		t.Fatalf("taint -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "compat/taint-json", r.stdout)
	into := filepath.Join(t.TempDir(), "untaint.json")
	r = rig(t, dir, "untaint", "-no-color", "-json-into="+into, "terraform_data.a")
	if r.code != 0 || r.stdout != "Resource instance terraform_data.a has been successfully untainted.\n" {
		t.Fatalf("untaint -json-into: exit %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	if types := jsonTypes(t, into); !types["version"] {
		t.Errorf("the -json-into file has no version message")
	}
	b, _ := os.ReadFile(into)
	if !strings.Contains(string(b), `"@message":"Resource instance terraform_data.a has been successfully untainted."`) {
		t.Errorf("the -json-into file lacks the message:\n%s", b)
	}
	r = rig(t, dir, "workspace", "new", "-json", "dev")
	if r.code != 0 || !strings.Contains(r.stdout, `"@message":"Created and switched to workspace \"dev\". You're now on a new, empty workspace.`) {
		t.Errorf("workspace new -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "workspace", "list", "-json")
	if r.code != 0 || !strings.Contains(r.stdout, `"current_workspace":"dev","type":"workspace_list","workspaces":["default","dev"]`) {
		t.Errorf("workspace list -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// The view options OpenTofu 1.12 takes on every command are known to every
// rig command.
func TestViewOptionsEverywhere(t *testing.T) {
	dir := t.TempDir()
	for name, c := range commands {
		if c.run == nil {
			continue
		}
		args := append(strings.Fields(name), "-no-color", "-compact-warnings", "-concise", "-consolidate-errors",
			"-consolidate-warnings=false", "-deprecation=module:none", "-help")
		if r := rig(t, dir, args...); r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: rig [global options] "+name) {
			t.Errorf("rig %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}
