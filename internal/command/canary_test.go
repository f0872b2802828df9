package command

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// The canary configuration holds secrets of every kind rig must hide: a
// sensitive variable (CanaryVar-…), the sensitive attributes of the test
// provider plugin's test_secret resource and data source ("s3cr3t-…"),
// values derived from both in another resource, through a module, in
// outputs, conditions and a local-exec provisioner. canaryPattern finds
// any of them, in any case (the module upper-cases one).
var canaryPattern = regexp.MustCompile(`(?i)canaryvar|s3cr3t`)

// It also holds ephemeral values, which nothing may show or keep: an
// ephemeral variable (EphCanary-…, given in TF_VAR_eph) and what the test
// plugin's ephemeral test_token opens from it ("token-EphCanary-…"), which
// configures a provider, feeds the write-only pin_wo of test_secret, a
// condition and a provisioner. ephemeralPattern finds them.
var ephemeralPattern = regexp.MustCompile(`(?i)ephcanary`)

// pluginConfigLog matches the test plugin's own log line that quotes the
// configuration it was given, as a provider's log may: rig passes the
// plugin's log on at TF_LOG=trace, as Terraform and OpenTofu do, and does
// not answer for what it says.
var pluginConfigLog = regexp.MustCompile(`(?m)^.*terraform-provider-test: configured region .*$`)

// ephemeralCanary is the ephemeral variable's value.
const ephemeralCanary = "EphCanary-5d1f"

var canaryFiles = map[string]string{
	"main.tf": `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "CanaryVar-7f3a9"
  validation {
    condition     = !endswith(var.secret, "BAD")
    error_message = "The secret ${var.secret} is not allowed."
  }
}
variable "key" {
  type      = string
  sensitive = true
  default   = "canary-key"
}
variable "eph" {
  type      = string
  ephemeral = true
}
ephemeral "test_token" "t" {
  name = var.eph
}
provider "test" {
  alias  = "eph"
  region = ephemeral.test_token.t.secret
}
resource "test_thing" "via" {
  provider = test.eph
  name     = "via"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.t.secret != var.eph
      error_message = "Token ${ephemeral.test_token.t.secret} is the name."
    }
  }
  provisioner "local-exec" {
    command     = "echo token=$TOKEN"
    environment = {
      TOKEN = ephemeral.test_token.t.secret
    }
  }
}
resource "test_secret" "s" {
  key            = var.key
  token          = var.secret
  pin_wo         = ephemeral.test_token.t.secret
  pin_wo_version = 1
  credential {
    user = "u"
    pin  = var.secret
  }
  lifecycle {
    precondition {
      condition     = length(var.secret) > 3
      error_message = "Short: ${var.secret}."
    }
    postcondition {
      condition     = self.password != ""
      error_message = "No password: ${self.password}."
    }
  }
}
data "test_secret" "d" {
  key = "canary-data"
}
module "m" {
  source = "./m"
  in     = test_secret.s.password
  sec    = var.secret
}
resource "test_thing" "t" {
  name = "thing"
  tags = {
    pw   = module.m.out
    var  = "${var.secret}-derived"
    data = data.test_secret.d.password
  }
  provisioner "local-exec" {
    command = "echo ${var.secret} ${self.tags["pw"]}"
  }
}
resource "test_thing" "imp" {
  name = "imp-1"
  tags = { s = var.secret }
}
check "c" {
  assert {
    condition     = test_secret.s.password != var.secret
    error_message = "Same: ${var.secret}."
  }
}
output "pw" {
  value     = test_secret.s.password
  sensitive = true
}
output "derived" {
  value     = module.m.out
  sensitive = true
  precondition {
    condition     = module.m.out != ""
    error_message = "Empty: ${module.m.out}."
  }
}
output "plain" {
  value = test_thing.t.id
}
`,
	"m/main.tf": `variable "in" {}
variable "sec" {
  sensitive = true
}
output "out" {
  value = "${upper(var.in)}/${var.sec}"
}
`,
}

// canaryStep is one command a user runs on the canary configuration.
type canaryStep struct {
	name string
	args []string
	// tfArgs are Terraform's arguments where they differ; rigOnly steps
	// have no Terraform counterpart.
	tfArgs  []string
	rigOnly bool
	stdin   string
	// fails: rig exits 1.
	fails bool
	// shows: the values are printed here, as Terraform 1.11 prints them
	// (the state itself, JSON for machines, a sensitive output asked for by
	// name). TestCanaryMatchesOtherTools checks the list against Terraform
	// and OpenTofu. Ephemeral values are shown nowhere.
	shows bool
	// noEph: the ephemeral variable is not given.
	noEph bool
	// files are added to the configuration for this step only.
	files map[string]string
}

// canaryBadOutput is a configuration file with a root output that refers
// to the sensitive variable without saying it is sensitive, which every
// command that loads the configuration refuses.
var canaryBadOutput = map[string]string{"bad.tf": `output "leak" {
  value = "${var.secret}-leak"
}
`}

// canaryBadSyntax is a configuration file that does not parse.
var canaryBadSyntax = map[string]string{"bad.tf": `resource "test_thing" "bad" {
  name = "${var.secret}-${var.missing
}
`}

// canaryBadState replaces the state with a file that is not one (and is
// put back after the step).
var canaryBadState = map[string]string{"terraform.tfstate": "{not json"}

// canaryFailingProvisioner is a configuration file with a resource whose
// provisioner's command, given the sensitive variable, fails.
var canaryFailingProvisioner = map[string]string{"fails.tf": `resource "test_thing" "fails" {
  name = "fails"
  provisioner "local-exec" {
    command = "echo ${var.secret} && exit 3"
  }
}
`}

var canarySteps = []canaryStep{
	{name: "init", args: []string{"init"}, tfArgs: []string{"get"}},
	{name: "validate", args: []string{"validate"}},
	{name: "import", args: []string{"import", "test_thing.imp", "imp-1"}},
	{name: "plan", args: []string{"plan"}},
	{name: "plan -out", args: []string{"plan", "-out=p.plan"}},
	{name: "apply PLANFILE without the ephemeral variable", args: []string{"apply", "-input=false", "p.plan"}, noEph: true, fails: true},
	{name: "show PLANFILE", args: []string{"show", "p.plan"}},
	{name: "show -json PLANFILE", args: []string{"show", "-json", "p.plan"}, shows: true},
	{name: "apply PLANFILE", args: []string{"apply", "p.plan"}},
	{name: "apply -json", args: []string{"apply", "-json", "-auto-approve"}},
	{name: "show", args: []string{"show"}},
	{name: "show -json", args: []string{"show", "-json"}, shows: true},
	{name: "state list", args: []string{"state", "list"}},
	{name: "state show resource", args: []string{"state", "show", "test_secret.s"}},
	{name: "state show dependent", args: []string{"state", "show", "test_thing.t"}},
	{name: "state show data source", args: []string{"state", "show", "data.test_secret.d"}},
	{name: "state pull", args: []string{"state", "pull"}, shows: true},
	{name: "output", args: []string{"output"}},
	{name: "output NAME", args: []string{"output", "pw"}, shows: true},
	{name: "output -raw NAME", args: []string{"output", "-raw", "pw"}, shows: true},
	{name: "output -json", args: []string{"output", "-json"}, shows: true},
	{name: "console", args: []string{"console"}, stdin: "var.secret\ntest_secret.s.password\ntest_secret.s\nmodule.m.out\ndata.test_secret.d\ntest_thing.t.tags\nvar.eph\nephemeral.test_token.t\n"},
	{name: "explain", args: []string{"explain", "test_thing.t"}, rigOnly: true},
	{name: "explain -json", args: []string{"explain", "-json", "test_thing.t"}, rigOnly: true},
	{name: "graph -format=html", args: []string{"graph", "-format=html"}, rigOnly: true},
	{name: "plan -replace", args: []string{"plan", "-replace=test_secret.s"}},
	{name: "apply -replace", args: []string{"apply", "-auto-approve", "-replace=test_secret.s"}},
	{name: "apply -timeline", args: []string{"apply", "-auto-approve", "-replace=test_secret.s", "-timeline=timeline.html"}, rigOnly: true},
	{name: "show -timeline", args: []string{"show", "-timeline=timeline2.html"}, rigOnly: true},
	{name: "refresh", args: []string{"refresh"}},
	{name: "plan with a variable that fails validation", args: []string{"plan", "-var", "secret=CanaryVar-BAD"}, fails: true},
	{name: "plan -out with a variable that fails validation", args: []string{"plan", "-out=bad.plan", "-var", "secret=CanaryVar-BAD"}, fails: true},
	{name: "apply with a value the provider rejects", args: []string{"apply", "-auto-approve", "-var", "key=bad-CanaryVar-k"}, fails: true},
	{name: "apply -json with a value the provider rejects", args: []string{"apply", "-json", "-auto-approve", "-var", "key=bad-CanaryVar-k"}, fails: true},
	{name: "refresh with a variable that fails validation", args: []string{"refresh", "-var", "secret=CanaryVar-BAD"}, fails: true},
	{name: "destroy with a variable that fails validation", args: []string{"destroy", "-auto-approve", "-var", "secret=CanaryVar-BAD"}, fails: true},
	{name: "show of a missing plan file", args: []string{"show", "missing.plan"}, fails: true},
	{name: "show -json of a missing plan file", args: []string{"show", "-json", "missing.plan"}, fails: true},
	{name: "init with a missing backend configuration file", args: []string{"init", "-backend-config=missing.hcl"}, fails: true},
	{name: "validate of a configuration with an output that leaks", args: []string{"validate"}, files: canaryBadOutput, fails: true},
	{name: "plan of a configuration with an output that leaks", args: []string{"plan"}, files: canaryBadOutput, fails: true},
	{name: "graph -format=html of a configuration that does not parse", args: []string{"graph", "-format=html"}, files: canaryBadSyntax, rigOnly: true, fails: true},
	{name: "apply with a provisioner that fails", args: []string{"apply", "-auto-approve"}, files: canaryFailingProvisioner, fails: true},
	{name: "apply -json with a provisioner that fails", args: []string{"apply", "-json", "-auto-approve"}, files: canaryFailingProvisioner, fails: true},
	{name: "apply -timeline with a provisioner that fails", args: []string{"apply", "-auto-approve", "-timeline=timeline3.html"}, files: canaryFailingProvisioner, rigOnly: true, fails: true},
	{name: "state list of a state that is not one", args: []string{"state", "list"}, files: canaryBadState, fails: true},
	{name: "state pull of a state that is not one", args: []string{"state", "pull"}, files: canaryBadState, fails: true},
	{name: "console with a failing conversion", args: []string{"console"}, stdin: "tonumber(var.secret)\n", fails: true},
	{name: "state show of a missing object", args: []string{"state", "show", "test_thing.nope"}, fails: true},
	{name: "output of a missing output", args: []string{"output", "nope"}, fails: true},
	{name: "import of an object already managed", args: []string{"import", "test_thing.imp", "imp-1"}, fails: true},
	{name: "explain of a missing object", args: []string{"explain", "test_thing.nope"}, rigOnly: true, fails: true},
	{name: "plan without the ephemeral variable", args: []string{"plan", "-input=false"}, noEph: true, fails: true},
	{name: "destroy", args: []string{"destroy", "-auto-approve"}},
}

// canaryEnv runs rig or terraform in a working directory with the canary
// configuration, the test provider plugin as a development override and
// TF_LOG=trace, capturing everything the command prints (its own log and
// the provider's included).
type canaryEnv struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func newCanaryEnv(t *testing.T, bin string) *canaryEnv {
	t.Helper()
	pluginDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(pluginDir, "terraform-provider-test"), testProviderExecutable(t), 0o755); err != nil {
		t.Fatal(err)
	}
	cliDir := t.TempDir()
	// rig/test is registry.terraform.io/rig/test to rig and Terraform (and
	// in the state), registry.opentofu.org/rig/test to OpenTofu.
	writeFile(t, cliDir, "cli.tfrc", `provider_installation {
  dev_overrides {
    "registry.terraform.io/rig/test" = "`+pluginDir+`"
    "registry.opentofu.org/rig/test" = "`+pluginDir+`"
  }
  direct {}
}
`)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "TF_LOG") || strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=")
	})
	env = append(env, "TF_CLI_CONFIG_FILE="+filepath.Join(cliDir, "cli.tfrc"), "TF_LOG=trace", "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TF_VAR_eph="+ephemeralCanary)
	return &canaryEnv{t: t, bin: bin, dir: workDir(t, canaryFiles), env: env}
}

// run runs a command; args are the step's for this tool.
func (e *canaryEnv) run(args []string, stdin string) result {
	e.t.Helper()
	return e.runEnv(args, stdin, e.env)
}

// runStep runs step s with args, the step's for this tool.
func (e *canaryEnv) runStep(s canaryStep, args []string) result {
	e.t.Helper()
	env := e.env
	if s.noEph {
		env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "TF_VAR_eph=") })
	}
	for name, content := range s.files {
		path := filepath.Join(e.dir, name)
		old, err := os.ReadFile(path)
		if err == nil {
			defer writeFile(e.t, e.dir, name, string(old))
		} else {
			defer os.Remove(path)
		}
		writeFile(e.t, e.dir, name, content)
	}
	return e.runEnv(args, s.stdin, env)
}

func (e *canaryEnv) runEnv(args []string, stdin string, env []string) result {
	e.t.Helper()
	args = withNoColor(args)
	cmd := exec.Command(e.bin, append([]string{"-chdir=" + e.dir}, args...)...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	r, err := commandtest.Exec(cmd)
	if err != nil {
		e.t.Fatalf("%s %v: %v", filepath.Base(e.bin), args, err)
	}
	return result{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
}

// withNoColor adds -no-color to the commands that print in color.
func withNoColor(args []string) []string {
	switch {
	case len(args) == 0 || slices.Contains(args, "-json") || slices.Contains(args, "-raw"):
		return args
	case len(args) > 1 && args[0] == "state" && args[1] == "show":
		return slices.Concat([]string{"state", "show", "-no-color"}, args[2:])
	case slices.Contains([]string{"init", "get", "validate", "import", "plan", "show", "apply", "refresh", "destroy", "console", "explain", "output"}, args[0]):
		return slices.Concat([]string{args[0], "-no-color"}, args[1:])
	}
	return args
}

// file returns the content of a file of the working directory, "" when
// there is none.
func (e *canaryEnv) file(name string) string {
	b, _ := os.ReadFile(filepath.Join(e.dir, name))
	return string(b)
}

// canaryFilesKept are the files the commands write in the working
// directory, which may hold sensitive values (the state, a saved plan) but
// never an ephemeral one.
var canaryFilesKept = []string{"terraform.tfstate", "terraform.tfstate.backup", "p.plan", "timeline.html", "timeline2.html", "timeline3.html", ".terraform/rig-timeline.json"}

// TestCanary runs every command a user runs on the canary configuration
// with TF_LOG=trace and checks that the sensitive values appear only where
// Terraform 1.11 shows them too: in the state (and what prints it whole:
// state pull, show -json), the JSON plan, and a sensitive output asked for
// by name; every other output, the graph and timeline pages and the
// timeline record hide them. The ephemeral values appear nowhere, in no
// output, state, backup, saved plan or record: a saved plan names the
// ephemeral variable, whose value its apply needs again; the write-only
// attribute is null in state; the output of a provisioner given one is
// suppressed.
func TestCanary(t *testing.T) {
	e := newCanaryEnv(t, buildRig(t))
	for _, s := range canarySteps {
		r := e.runStep(s, s.args)
		out := r.stdout + r.stderr
		if s.fails != (r.code != 0) {
			t.Errorf("%s: exit %d\n%s", s.name, r.code, out)
		}
		found := canaryPattern.FindAllString(out, -1)
		switch {
		case s.shows && len(found) == 0:
			t.Errorf("%s does not print the values it should: the canary is not in play\n%s", s.name, out)
		case !s.shows && len(found) > 0:
			t.Errorf("%s printed sensitive values %q:\n%s", s.name, found, out)
		}
		if found := ephemeralPattern.FindAllString(pluginConfigLog.ReplaceAllString(out, ""), -1); len(found) > 0 {
			t.Errorf("%s printed ephemeral values %q:\n%s", s.name, found, out)
		}
		for _, f := range canaryFilesKept {
			if found := ephemeralPattern.FindAllString(e.file(f), -1); len(found) > 0 {
				t.Errorf("after %s, %s holds ephemeral values %q", s.name, f, found)
			}
		}
		switch s.name {
		case "plan -out":
			var pf struct {
				EphemeralVariables []string `json:"ephemeral_variables"`
			}
			if err := json.Unmarshal([]byte(e.file("p.plan")), &pf); err != nil || !slices.Equal(pf.EphemeralVariables, []string{"eph"}) {
				t.Errorf("the saved plan names ephemeral variables %v (%v), want [eph]", pf.EphemeralVariables, err)
			}
		case "apply PLANFILE without the ephemeral variable":
			if !strings.Contains(out, `Variable "eph" is configured as ephemeral`) {
				t.Errorf("%s says:\n%s", s.name, out)
			}
		case "apply PLANFILE":
			if !strings.Contains(out, "(output suppressed due to ephemeral value in config)") {
				t.Errorf("%s: the output of the provisioner given an ephemeral value is not suppressed:\n%s", s.name, out)
			}
		case "apply -replace":
			checkCanaryState(t, e.file("terraform.tfstate"))
		}
	}
	for _, name := range []string{"timeline.html", "timeline2.html", "timeline3.html", ".terraform/rig-timeline.json"} {
		content := e.file(name)
		if content == "" {
			t.Errorf("%s was not written", name)
		}
		if found := canaryPattern.FindAllString(content, -1); len(found) > 0 {
			t.Errorf("%s holds sensitive values %q", name, found)
		}
	}
}

// checkCanaryState checks that the state records the secrets (it is
// where they are kept) and each object's sensitive paths as Terraform
// writes them: those the schema declares, and those of values derived
// from sensitive ones, each step as Terraform encodes it.
func checkCanaryState(t *testing.T, raw string) {
	t.Helper()
	if !canaryPattern.MatchString(raw) {
		t.Errorf("the state does not hold the secrets")
	}
	want := map[string]string{
		"test_secret.s":      `[[{"type":"get_attr","value":"credential"},{"type":"index","value":{"value":0,"type":"number"}},{"type":"get_attr","value":"pin"}],[{"type":"get_attr","value":"key"}],[{"type":"get_attr","value":"password"}],[{"type":"get_attr","value":"pin_wo"}],[{"type":"get_attr","value":"token"}]]`,
		"data.test_secret.d": `[[{"type":"get_attr","value":"password"}]]`,
		"test_thing.t":       `[[{"type":"get_attr","value":"created"}],[{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"data","type":"string"}}],[{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"pw","type":"string"}}],[{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"var","type":"string"}}]]`,
		"test_thing.imp":     `[[{"type":"get_attr","value":"created"}],[{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"s","type":"string"}}]]`,
	}
	got := sensitiveAttributesByAddress(t, raw)
	for addr, w := range want {
		if got[addr] != w {
			t.Errorf("%s: sensitive_attributes\n got %s\nwant %s", addr, got[addr], w)
		}
	}
	checkEphemeralShape(t, raw)
}

// checkEphemeralShape checks that a state written after applying the
// canary records no ephemeral resource and the write-only attribute null.
func checkEphemeralShape(t *testing.T, raw string) {
	t.Helper()
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				Attributes map[string]json.RawMessage `json:"attributes"`
			}
		}
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("state: %v", err)
	}
	for _, r := range st.Resources {
		if r.Mode == "ephemeral" {
			t.Errorf("the state records the ephemeral resource %s.%s", r.Type, r.Name)
		}
		if r.Mode == "managed" && r.Type == "test_secret" {
			if a := r.Instances[0].Attributes; string(a["pin_wo"]) != "null" || string(a["pin_wo_version"]) != "1" {
				t.Errorf("test_secret.%s: pin_wo %s, pin_wo_version %s; want the write-only attribute null and its version 1", r.Name, a["pin_wo"], a["pin_wo_version"])
			}
		}
	}
}

// sensitiveAttributesByAddress returns each instance's sensitive_attributes
// as compact JSON, by address.
func sensitiveAttributesByAddress(t *testing.T, raw string) map[string]string {
	t.Helper()
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Module           string
			Instances        []struct {
				IndexKey            json.RawMessage `json:"index_key"`
				SensitiveAttributes json.RawMessage `json:"sensitive_attributes"`
			}
		}
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("state: %v", err)
	}
	out := map[string]string{}
	for _, r := range st.Resources {
		addr := r.Type + "." + r.Name
		if r.Mode == "data" {
			addr = "data." + addr
		}
		if r.Module != "" {
			addr = r.Module + "." + addr
		}
		for _, inst := range r.Instances {
			a := addr
			if len(inst.IndexKey) > 0 {
				a += "[" + string(inst.IndexKey) + "]"
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, inst.SensitiveAttributes); err == nil {
				out[a] = compact.String()
			}
		}
	}
	return out
}

// TestCanaryMatchesOtherTools runs the canary steps under rig and, side
// by side, Terraform 1.11 (skipped when terraform is not installed) and
// OpenTofu (when RIG_TEST_TOFU names its executable), so that the list of
// places allowed to show the values is theirs rather than ours: rig prints
// them nowhere the other tool does not, and every step that is allowed to
// print them does under the other tool too. Both record the same
// sensitive paths in state, and the other tool shows a state rig wrote
// with the same values hidden.
func TestCanaryMatchesOtherTools(t *testing.T) {
	tf, _ := exec.LookPath("terraform")
	for _, tool := range []struct{ name, bin, skip string }{
		{"terraform", tf, "terraform is not installed"},
		{"opentofu", os.Getenv("RIG_TEST_TOFU"), "set RIG_TEST_TOFU to an OpenTofu executable to compare with it"},
	} {
		t.Run(tool.name, func(t *testing.T) {
			if tool.bin == "" {
				t.Skip(tool.skip)
			}
			compareCanaryWith(t, tool.bin)
		})
	}
}

// compareCanaryWith runs the canary steps under rig and the tool bin.
func compareCanaryWith(t *testing.T, bin string) {
	rigEnv, toolEnv := newCanaryEnv(t, buildRig(t)), newCanaryEnv(t, bin)
	tool := filepath.Base(bin)
	for _, s := range canarySteps {
		if s.rigOnly {
			continue
		}
		toolArgs := s.args
		if s.tfArgs != nil {
			toolArgs = s.tfArgs
		}
		rr, tr := rigEnv.runStep(s, s.args), toolEnv.runStep(s, toolArgs)
		if s.name == "show -json PLANFILE" {
			comparePlanSensitivity(t, rr.stdout, tr.stdout)
		}
		rigShows := canaryPattern.MatchString(rr.stdout + rr.stderr)
		toolShows := canaryPattern.MatchString(tr.stdout + tr.stderr)
		switch {
		case rigShows && !toolShows:
			t.Errorf("%s: rig prints sensitive values %s hides:\n%s%s", s.name, tool, rr.stdout, rr.stderr)
		case s.shows && !toolShows:
			t.Errorf("%s: %s does not print the values, but the step is listed as one that may", s.name, tool)
		case toolShows && !rigShows:
			t.Logf("%s: %s prints sensitive values rig hides", s.name, tool)
		}
		if found := ephemeralPattern.FindAllString(pluginConfigLog.ReplaceAllString(tr.stdout+tr.stderr, ""), -1); len(found) > 0 {
			t.Logf("%s: %s prints ephemeral values %q", s.name, tool, found)
		}
		if s.name == "apply -replace" {
			rigPaths := sensitiveAttributesByAddress(t, rigEnv.file("terraform.tfstate"))
			toolPaths := sensitiveAttributesByAddress(t, toolEnv.file("terraform.tfstate"))
			// rig writes them as Terraform does; OpenTofu 1.12 leaves out
			// the attributes a data source's schema declares sensitive,
			// so with it rig's must hold at least its own.
			for addr, p := range toolPaths {
				same := samePathSet(t, p, rigPaths[addr])
				if !same && strings.HasPrefix(tool, "tofu") {
					same = pathSubset(t, p, rigPaths[addr])
				}
				if !same {
					t.Errorf("%s: sensitive_attributes differ\n%s %s\nrig       %s", addr, tool, p, rigPaths[addr])
				}
			}
			checkEphemeralShape(t, toolEnv.file("terraform.tfstate"))
			compareWithToolShow(t, rigEnv, bin)
		}
	}
}

// pathSubset reports whether every path of the sensitive_attributes list
// a is in b.
func pathSubset(t *testing.T, a, b string) bool {
	t.Helper()
	var pa, pb []json.RawMessage
	if json.Unmarshal([]byte(a), &pa) != nil || json.Unmarshal([]byte(b), &pb) != nil {
		return false
	}
	for _, p := range pa {
		if !slices.ContainsFunc(pb, func(q json.RawMessage) bool { return string(q) == string(p) }) {
			return false
		}
	}
	return true
}

// samePathSet reports whether two sensitive_attributes lists hold the same
// paths, each byte for byte: Terraform 1.11 writes them in an order that
// varies from run to run, rig sorted.
func samePathSet(t *testing.T, a, b string) bool {
	t.Helper()
	var pa, pb []json.RawMessage
	if json.Unmarshal([]byte(a), &pa) != nil || json.Unmarshal([]byte(b), &pb) != nil || len(pa) != len(pb) {
		return false
	}
	keys := func(ps []json.RawMessage) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = string(p)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(keys(pa), keys(pb))
}

// compareWithToolShow runs the tool's show and state show on the state
// rig wrote: they hide the secrets too, and the tool's JSON marks the same
// values sensitive as rig's.
func compareWithToolShow(t *testing.T, rigEnv *canaryEnv, bin string) {
	t.Helper()
	tfOnRig := &canaryEnv{t: t, bin: bin, dir: rigEnv.dir, env: rigEnv.env}
	for _, args := range [][]string{{"show"}, {"state", "show", "test_thing.t"}, {"state", "show", "test_secret.s"}} {
		r := tfOnRig.run(args, "")
		if r.code != 0 {
			t.Errorf("%s %v on rig's state: exit %d\n%s", filepath.Base(bin), args, r.code, r.stderr)
		}
		if found := canaryPattern.FindAllString(r.stdout+r.stderr, -1); len(found) > 0 {
			t.Errorf("%s %v shows %q from rig's state", filepath.Base(bin), args, found)
		}
	}
	tfJSON := realSensitiveValues(t, tfOnRig.run([]string{"show", "-json"}, "").stdout)
	rigJSON := realSensitiveValues(t, rigEnv.run([]string{"show", "-json"}, "").stdout)
	for addr, v := range tfJSON {
		if rigJSON[addr] != v {
			t.Errorf("%s: sensitive_values\n%s %s\nrig       %s", addr, filepath.Base(bin), v, rigJSON[addr])
		}
	}
}

// tofuBinary returns the OpenTofu executable RIG_TEST_TOFU names, else
// tofu on the PATH; "" when there is none.
func tofuBinary() string {
	if p := os.Getenv("RIG_TEST_TOFU"); p != "" {
		return p
	}
	p, _ := exec.LookPath("tofu")
	return p
}

// comparePlanSensitivity compares the sensitivity maps of two JSON plans
// (planned_values' sensitive_values, resource_changes' before_sensitive
// and after_sensitive) by what they mark, ignoring the empty objects and
// lists that only mirror a value's shape.
func comparePlanSensitivity(t *testing.T, rigJSON, tfJSON string) {
	t.Helper()
	type doc struct {
		PlannedValues struct {
			RootModule struct {
				Resources []struct {
					Address         string `json:"address"`
					SensitiveValues any    `json:"sensitive_values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"planned_values"`
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				BeforeSensitive any `json:"before_sensitive"`
				AfterSensitive  any `json:"after_sensitive"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	maps := func(raw string) map[string]string {
		var d doc
		if err := json.Unmarshal([]byte(raw), &d); err != nil {
			t.Fatalf("JSON plan: %v", err)
		}
		out := map[string]string{}
		put := func(key string, v any) {
			b, _ := json.Marshal(markedOnly(v))
			out[key] = string(b)
		}
		for _, r := range d.PlannedValues.RootModule.Resources {
			put("planned "+r.Address, r.SensitiveValues)
		}
		for _, c := range d.ResourceChanges {
			put("before "+c.Address, c.Change.BeforeSensitive)
			put("after "+c.Address, c.Change.AfterSensitive)
		}
		return out
	}
	rig, tf := maps(rigJSON), maps(tfJSON)
	for k, v := range tf {
		if rig[k] != v {
			t.Errorf("JSON plan %s sensitivity: terraform %s, rig %s", k, v, rig[k])
		}
	}
}

// markedOnly drops what says nothing about sensitivity from a sensitivity
// map: object entries that hold nothing marked (false, {}, [], lists of
// such).
func markedOnly(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if e = markedOnly(e); marksSomething(e) {
				out[k] = e
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = markedOnly(e)
		}
		return out
	}
	return v
}

// marksSomething reports whether a markedOnly sensitivity value marks
// anything.
func marksSomething(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		return len(v) > 0
	case []any:
		return slices.ContainsFunc(v, marksSomething)
	}
	return false
}
