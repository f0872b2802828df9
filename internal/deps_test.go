package internal

import (
	"os/exec"
	"strings"
	"testing"
)

// allowedImports is the layering of docs/design.md §3: each package may import
// only the rig packages listed for it (external libraries are not listed).
// Never loosen it to make a build pass: move the code instead. Each
// package's doc says the same in its "It imports" sentence (TestDocImports).
var allowedImports = map[string][]string{
	"internal/diag":                     {},
	"internal/dag":                      {},
	"internal/addrs":                    {},
	"internal/parallel":                 {},
	"internal/adaptive":                 {}, // adaptive concurrency limits for calls to remote APIs
	"internal/ctyjson":                  {},
	"internal/marks":                    {}, // value marks (sensitive) and how marked values are kept out of text
	"internal/version":                  {}, // rig's version and the Terraform version it is compatible with
	"internal/backend":                  {"internal/version"},
	"internal/backend/local":            {"internal/backend"},
	"internal/backend/inmem":            {"internal/backend"},
	"internal/backend/backendtest":      {"internal/backend"},
	"internal/backend/pg":               {"internal/backend", "internal/parallel"},
	"internal/backend/http":             {"internal/backend", "internal/parallel"},
	"internal/backend/http/stateserver": {},
	"internal/backend/pg/pgtest":        {},
	"internal/backend/s3":               {"internal/backend", "internal/parallel"},
	"internal/backend/s3/s3test":        {},
	"internal/config":                   {"internal/addrs", "internal/diag", "internal/parallel", "internal/version"},
	"internal/lang":                     {"internal/addrs", "internal/diag", "internal/config", "internal/marks", "internal/parallel"},
	"internal/state":                    {"internal/addrs", "internal/ctyjson"},
	"internal/state/statefile":          {"internal/addrs", "internal/ctyjson", "internal/parallel", "internal/state"},
	"internal/state/journal":            {"internal/addrs", "internal/state", "internal/state/statefile"},
	// Durability: snapshots at increasing serials, the journal, its fold and replay.
	"internal/state/statemgr": {"internal/addrs", "internal/backend", "internal/diag", "internal/state",
		"internal/state/journal", "internal/state/statefile", "internal/version"},
	"internal/provider":         {"internal/adaptive", "internal/addrs", "internal/diag", "internal/marks", "internal/parallel", "internal/version"},
	"internal/provider/builtin": {"internal/addrs", "internal/ctyjson", "internal/diag", "internal/provider"},
	// The provisioners rig runs: their schemas and local-exec.
	"internal/provisioner":           {},
	"internal/provisioner/sshtest":   {},
	"internal/provider/providertest": {"internal/addrs", "internal/diag", "internal/provider"},
	// Provider installation: mirrors, version selection, the lock file.
	"internal/getproviders": {"internal/addrs", "internal/diag", "internal/parallel"},
	// An in-process provider registry for tests.
	"internal/getproviders/registrytest": {},
	// Module installation: source addresses, git clones, the module manifest.
	"internal/getmodules": {"internal/addrs", "internal/config", "internal/diag", "internal/getproviders", "internal/parallel"},
	// The canonical style of configuration files (fmt).
	"internal/hclfmt": {"internal/diag"},
	// State and plan encryption: the encryption block, pbkdf2, aes_gcm, the envelope.
	"internal/encryption": {"internal/config", "internal/diag"},
	// rig's own log (TF_LOG, TF_LOG_CORE, TF_LOG_PATH).
	"internal/corelog": {},
	// The command line as TF_CLI_ARGS extends it and as the log shows it.
	"internal/cliargs": {"internal/corelog", "internal/version"},
	// How a command stops when interrupted.
	"internal/interrupt": {},

	// The provider plugin client and the generated code of the two protocol versions.
	"internal/provider/plugin": {"internal/addrs", "internal/diag", "internal/provider",
		"internal/provider/plugin/tfplugin5", "internal/provider/plugin/tfplugin6"},
	"internal/provider/plugin/tfplugin5": {},
	"internal/provider/plugin/tfplugin6": {},

	// The results of a configuration's conditions, for plan JSON and state.
	"internal/checks": {"internal/addrs", "internal/config"},
	// The ephemeral resources a run has opened.
	"internal/ephemeral": {"internal/addrs", "internal/diag", "internal/provider"},
	// Evaluation of a configuration tree's expressions, shared by plan and apply.
	"internal/eval": {"internal/addrs", "internal/checks", "internal/config", "internal/diag", "internal/lang", "internal/marks", "internal/parallel", "internal/provider"},
	// The plan as a value and its vocabulary: what views, saved plans and apply read.
	"internal/plan": {"internal/addrs", "internal/checks", "internal/config", "internal/diag", "internal/marks", "internal/provider", "internal/state"},
	// The protocol of one resource instance with its provider, at plan and at apply.
	"internal/instance": {"internal/addrs", "internal/checks", "internal/config", "internal/diag", "internal/eval",
		"internal/lang", "internal/marks", "internal/plan", "internal/provider", "internal/state"},
	// The planning engine: graph, walk, targeting, moves, import, validate, generated configuration.
	"internal/planner": {"internal/adaptive", "internal/addrs", "internal/checks", "internal/config", "internal/dag", "internal/diag",
		"internal/ephemeral", "internal/eval", "internal/instance", "internal/lang", "internal/marks", "internal/parallel", "internal/plan", "internal/provider", "internal/provisioner", "internal/state"},
	"internal/plan/planfile": {"internal/addrs", "internal/ctyjson", "internal/marks", "internal/plan", "internal/state", "internal/state/statefile"},
	"internal/apply": {"internal/adaptive", "internal/addrs", "internal/checks", "internal/config", "internal/dag", "internal/diag",
		"internal/ephemeral", "internal/eval", "internal/instance", "internal/lang", "internal/marks", "internal/parallel", "internal/plan", "internal/planner", "internal/provider", "internal/provisioner", "internal/state"},
	// The machine-readable JSON shapes: below the renderers that fill them
	// in (ui), above the configuration and schemas it describes.
	"internal/jsonformat": {"internal/addrs", "internal/config", "internal/getproviders", "internal/lang", "internal/provider", "internal/state"},
	// What rig recover decides about the creates a crash cut off.
	"internal/recovery": {"internal/apply", "internal/diag", "internal/planner"},
	"internal/ui": {"internal/addrs", "internal/apply", "internal/dag", "internal/diag", "internal/ephemeral", "internal/jsonformat", "internal/marks", "internal/plan",
		"internal/planner", "internal/provider", "internal/recovery", "internal/state"},
	// Why a plan does what it does to one address (rig explain).
	"internal/explain": {"internal/addrs", "internal/apply", "internal/config", "internal/diag", "internal/jsonformat", "internal/lang",
		"internal/plan", "internal/planner", "internal/ui"},
	// rig test: test files run against injected plan, apply and providers.
	"internal/testrun": {"internal/addrs", "internal/apply", "internal/config", "internal/dag", "internal/diag",
		"internal/eval", "internal/lang", "internal/parallel", "internal/plan", "internal/planner", "internal/provider", "internal/state"},
	// The reports of rig test: human, JSON messages, JUnit XML.
	"internal/testreport":    {"internal/config", "internal/diag", "internal/state", "internal/testrun", "internal/ui"},
	"internal/graphview":     {"internal/addrs", "internal/apply", "internal/dag", "internal/plan"},
	"internal/browsertest":   {},
	"internal/timeline":      {"internal/addrs", "internal/apply", "internal/graphview", "internal/plan"},
	"internal/plan/plantest": {"internal/addrs", "internal/plan", "internal/state"},
	// The working directory: its data, backend record and configuration,
	// state stores, saved plans.
	"internal/workdir": {"internal/addrs", "internal/apply", "internal/backend", "internal/backend/http", "internal/backend/local",
		"internal/backend/pg", "internal/backend/s3", "internal/checks", "internal/config", "internal/corelog", "internal/diag",
		"internal/encryption", "internal/eval", "internal/getmodules", "internal/getproviders", "internal/lang", "internal/marks",
		"internal/plan", "internal/plan/planfile", "internal/planner", "internal/provider", "internal/provider/builtin", "internal/provider/plugin",
		"internal/provisioner", "internal/state", "internal/state/statefile", "internal/state/statemgr", "internal/testrun",
		"internal/timeline", "internal/version"},
	// The command-line interface: flags, help, prompts and the choice of
	// views, over the working directory and the engine.
	"internal/command": {"internal/addrs", "internal/apply", "internal/backend", "internal/cliargs", "internal/config",
		"internal/corelog", "internal/dag", "internal/diag", "internal/eval", "internal/explain",
		"internal/getmodules", "internal/getproviders", "internal/graphview", "internal/hclfmt", "internal/interrupt",
		"internal/jsonformat", "internal/lang", "internal/plan", "internal/plan/planfile", "internal/planner", "internal/provider",
		"internal/provider/builtin", "internal/provider/plugin", "internal/recovery", "internal/state", "internal/state/statefile",
		"internal/testreport", "internal/testrun", "internal/timeline", "internal/ui", "internal/version",
		"internal/workdir"},
	"cmd/rig": {"internal/command"},

	// The harness of the tests that drive rig as its users do, and the
	// packages of process-level tests that use it.
	"internal/command/commandtest": {"internal/backend", "internal/backend/pg", "internal/backend/pg/pgtest",
		"internal/backend/s3", "internal/backend/s3/s3test", "internal/state/journal", "internal/state/statefile"},
	// The in-process command line those packages' tests run.
	"internal/command/commandtest/cli": {"internal/command", "internal/command/commandtest", "internal/provider/plugin"},
	"internal/command/killtest":        {},
	"internal/command/proctest":        {},

	// The runner of the txtar specifications under testdata.
	"internal/txtartest": {"internal/diag"},
	// The golden files of tests and their -update flag.
	"internal/golden": {},

	// Benchmarks drive the engine packages directly.
	"bench":            {"*"},
	"bench/gen":        {},
	"bench/cloudbench": {}, // runs the rig command against slowcloud
	"bench/cmd/riggen": {"bench/gen"},
	// rig test beside tofu test: outcomes run by run, and times.
	"bench/tofutest":        {},
	"bench/cmd/testcompare": {"bench/tofutest"},
	"bench/cmd/testbench":   {"bench/tofutest"},
}

const modulePath = "github.com/rig-iac/rig/"

func TestImportLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", modulePath+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], modulePath)
		if pkg == "internal" {
			continue
		}
		allowed, ok := allowedImports[pkg]
		if !ok {
			t.Errorf("package %s is not in the allowed-imports table of internal/deps_test.go; add it with the imports its layer allows", pkg)
			continue
		}
		if len(allowed) == 1 && allowed[0] == "*" {
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, modulePath) {
				continue
			}
			dep := strings.TrimPrefix(imp, modulePath)
			if !contains(allowed, dep) {
				t.Errorf("%s imports %s, which its layer does not allow (docs/design.md §3)", pkg, dep)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
