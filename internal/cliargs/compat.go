package cliargs

import (
	"slices"
	"strings"
)

// CompatKind is what rig does with an option OpenTofu 1.12 or Terraform
// 1.11 takes that a rig command does not define itself.
type CompatKind uint8

const (
	// CompatVariables is -var or -var-file of a command that does not
	// plan: they set the root variables the configuration's static
	// expressions (module sources and versions, backend and encryption
	// settings) refer to, as in OpenTofu 1.12.
	CompatVariables CompatKind = iota + 1
	// CompatStream is -json or -json-into of a command whose
	// machine-readable output is its lines as messages.
	CompatStream
	// CompatIgnored is accepted and has no effect in rig, for the reason
	// its usage gives.
	CompatIgnored
	// CompatRefused is an error that gives the reason.
	CompatRefused
)

// CompatFlag is one such option.
type CompatFlag struct {
	Name   string
	Kind   CompatKind
	IsBool bool
	// Usage is the help line; for a refused option, the reason.
	Usage string
}

// Reasons shared by several commands.
const (
	remoteVersionNote = "Accepted without effect: rig has no remote or cloud backend whose OpenTofu or Terraform version this would overlook."
)

// jsonStreamFlags are -json and -json-into of a command whose output
// becomes the JSON stream (CompatStream).
var jsonStreamFlags = []CompatFlag{
	{Name: "json", Kind: CompatStream, IsBool: true, Usage: "Print machine-readable output: one JSON message a line, as OpenTofu writes them; implies -input=false."},
	{Name: "json-into", Kind: CompatStream, Usage: "Write the machine-readable output -json prints into `FILE` (created or truncated, mode 0600), while the human output goes to the terminal as usual."},
}

// varFlags are -var and -var-file on a command that does not plan.
var varFlags = []CompatFlag{{Name: "var", Kind: CompatVariables}, {Name: "var-file", Kind: CompatVariables}}

var (
	ignoreRemoteVersion = CompatFlag{Name: "ignore-remote-version", Kind: CompatIgnored, IsBool: true, Usage: remoteVersionNote}
)

// compatFlags lists, by command, the options of OpenTofu 1.12 and
// Terraform 1.11 that the command does not define itself (CompatFlags).
var compatFlags = map[string][]CompatFlag{
	"init": append([]CompatFlag{ignoreRemoteVersion,
		{Name: "enable-pluggable-state-storage-experiment", Kind: CompatRefused, IsBool: true, Usage: "pluggable state storage is an experiment of Terraform that rig does not have; rig's state is kept by the backend block's backend"},
		{Name: "state-provider-lock-file", Kind: CompatRefused, Usage: "pluggable state storage is an experiment of Terraform that rig does not have; rig's state is kept by the backend block's backend"},
	}, varFlags...),
	"get":      slices.Clone(varFlags),
	"modules":  slices.Clone(varFlags),
	"validate": slices.Clone(varFlags),
	"test": {
		{Name: "cloud-run", Kind: CompatRefused, Usage: "rig runs tests where it runs; it has no HCP Terraform or Terraform Enterprise to run them remotely"},
		{Name: "allow-deferral", Kind: CompatRefused, IsBool: true, Usage: "deferred actions are an experiment of Terraform that rig does not have"},
		{Name: "repair", Kind: CompatIgnored, IsBool: true, Usage: "Accepted without effect: rig keeps no state of a test run after it (what a cleanup leaves is in errored_test.tfstate), so there is none to repair."},
	},
	"console": {
		{Name: "json", Kind: CompatRefused, IsBool: true, Usage: "the console prints human-readable values; -json-into writes each result as a JSON message into a file beside them, as OpenTofu allows"},
	},
	"graph": append([]CompatFlag{
		{Name: "draw-cycles", Kind: CompatRefused, IsBool: true, Usage: "rig draws no graph of a configuration or a plan that has a cycle: the \"Cycle:\" error lists each edge of the cycle, with the file and line of the reference behind it"},
		{Name: "module-depth", Kind: CompatIgnored, Usage: "Accepted without effect, as in Terraform, where it is deprecated: every module is drawn; `N` is not used."},
		{Name: "verbose", Kind: CompatIgnored, IsBool: true, Usage: "Accepted without effect: rig's graphs have no nodes that only OpenTofu's verbose graph would show."},
	}, varFlags...),
	"refresh": {
		{Name: "destroy", Kind: CompatRefused, IsBool: true, Usage: "refresh only updates the state to match remote objects; to destroy them, use \"rig destroy\""},
		{Name: "refresh-only", Kind: CompatIgnored, IsBool: true, Usage: "Accepted without effect: refresh is always refresh-only."},
	},
	"destroy": {
		{Name: "destroy", Kind: CompatRefused, IsBool: true, Usage: "the destroy command always runs in destroy mode"},
		{Name: "refresh-only", Kind: CompatRefused, IsBool: true, Usage: "the destroy command always runs in destroy mode; a refresh-only run is \"rig apply -refresh-only\""},
	},
	"import": append([]CompatFlag{ignoreRemoteVersion,
		{Name: "parallelism", Kind: CompatIgnored, Usage: "Accepted without effect: import reads one object, so `N` is not used."},
	}, jsonStreamFlags...),
	"force-unlock":     append(slices.Clone(jsonStreamFlags), varFlags...),
	"login":            append(slices.Clone(jsonStreamFlags), varFlags...),
	"logout":           slices.Clone(jsonStreamFlags),
	"output":           slices.Clone(varFlags),
	"show":             slices.Clone(varFlags),
	"providers":        append([]CompatFlag{{Name: "test-directory", Kind: CompatIgnored, Usage: "Accepted without effect: the tree lists the providers the configuration requires; a provider only a test file names (in `DIR`) is not listed."}}, varFlags...),
	"providers schema": slices.Clone(varFlags),
	"providers mirror": append(slices.Clone(jsonStreamFlags), varFlags...),
	"providers lock": append([]CompatFlag{
		{Name: "enable-plugin-cache", Kind: CompatIgnored, IsBool: true, Usage: "Accepted without effect: rig's providers lock finds packages in the plugin cache directory the CLI configuration names, if any, whether or not this is given."},
		{Name: "test-directory", Kind: CompatIgnored, Usage: "Accepted without effect: the lock file records the providers the configuration requires; a provider only a test file in `DIR` names is not locked."},
	}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state list":             slices.Clone(varFlags),
	"state show":             slices.Clone(varFlags),
	"state pull":             slices.Clone(varFlags),
	"state push":             append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state mv":               append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state rm":               append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state replace-provider": append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"taint":                  append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"untaint":                append([]CompatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"workspace list":         slices.Clone(varFlags),
	"workspace show":         slices.Clone(varFlags),
	"workspace new":          append(slices.Clone(jsonStreamFlags), varFlags...),
	"workspace select":       append(slices.Clone(jsonStreamFlags), varFlags...),
	"workspace delete":       append(slices.Clone(jsonStreamFlags), varFlags...),
}

// CompatFlags returns the options of OpenTofu 1.12 and Terraform 1.11
// that command does not define itself: each is handled, accepted or
// refused with its reason, so that none is ever an unknown option. An
// option the command defines itself is left to it (it is in the list all
// the same).
func CompatFlags(command string) []CompatFlag { return compatFlags[command] }

// refusedCommands are the commands of OpenTofu and Terraform that rig
// does not have, each with the reason; `rig NAME` says it.
var refusedCommands = map[string]string{
	"push":            "push uploaded configurations to Terraform Enterprise's legacy (0.x) runs and was removed from Terraform in 0.12 and from OpenTofu; rig has no remote operations",
	"internal-plugin": "internal-plugin ran plugins built into early Terraform releases; rig's provisioners and built-in provider are part of rig itself",
}

// commandAliases are other names of rig's commands, which OpenTofu and
// Terraform accept too; they are not listed in the help.
var commandAliases = map[string]string{
	"state ls":     "state list",
	"state remove": "state rm",
	"state move":   "state mv",
	"env":          "workspace",
}

// ResolveAlias returns the command args names after its alias, if it uses
// one: "state ls" is "state list"; "env" is "workspace" (its
// subcommands list, select, new and delete), deprecated says so, for the
// warning OpenTofu gives for it.
func ResolveAlias(name string, args []string) (_ string, _ []string, deprecated bool) {
	if name == "env" {
		return "workspace", args, true
	}
	if len(args) > 0 {
		if full, ok := commandAliases[name+" "+args[0]]; ok {
			words := strings.Fields(full)
			return words[0], append([]string{words[1]}, args[1:]...), false
		}
	}
	return name, args, false
}

// RefusedCommand returns why rig does not have command name, a command
// of OpenTofu or Terraform, or false when rig has it.
func RefusedCommand(name string) (string, bool) {
	reason, ok := refusedCommands[name]
	return reason, ok
}
