package command

import (
	"flag"
	"fmt"
	"github.com/rig-iac/rig/internal/workdir"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// compatKind is what rig does with an option OpenTofu 1.12 or Terraform
// 1.11 takes that the command does not define itself.
type compatKind uint8

const (
	// compatStream is -json or -json-into of a command whose
	// machine-readable output is its lines as messages (jsonstream.go).
	compatStream compatKind = iota + 1
	// compatIgnored is accepted and has no effect in rig, for the reason
	// its usage gives.
	compatIgnored
	// compatRefused is an error that gives the reason.
	compatRefused
)

// compatFlag is one such option.
type compatFlag struct {
	name   string
	kind   compatKind
	isBool bool
	// usage is the help line; for a refused option, the reason.
	usage string
}

// Reasons shared by several commands.
const (
	remoteVersionNote = "Accepted without effect: rig has no remote or cloud backend whose OpenTofu or Terraform version this would overlook."
)

// jsonStreamFlags are -json and -json-into of a command whose output
// becomes the JSON stream (compatStream).
var jsonStreamFlags = []compatFlag{
	{name: "json", kind: compatStream, isBool: true, usage: "Print machine-readable output: one JSON message a line, as OpenTofu writes them; implies -input=false."},
	{name: "json-into", kind: compatStream, usage: "Write the machine-readable output -json prints into `FILE` (created or truncated, mode 0600), while the human output goes to the terminal as usual."},
}

// varFlags are -var and -var-file on a command that does not plan: they
// set the root variables the configuration's static expressions (module
// sources and versions, backend and encryption settings) refer to, as in
// OpenTofu 1.12 (addCompatFlags defines them with Meta.varFlags).
var varFlags = []compatFlag{{name: "var"}, {name: "var-file"}}

var (
	ignoreRemoteVersion = compatFlag{name: "ignore-remote-version", kind: compatIgnored, isBool: true, usage: remoteVersionNote}
)

// compatFlags lists, by command, the options of OpenTofu 1.12 and
// Terraform 1.11 that the command does not define itself: each is handled
// here, accepted or refused with its reason, so that none is ever an
// unknown option. An option a command defines itself is left to it.
var compatFlags = map[string][]compatFlag{
	"init":     append([]compatFlag{ignoreRemoteVersion}, varFlags...),
	"get":      slices.Clone(varFlags),
	"modules":  slices.Clone(varFlags),
	"validate": slices.Clone(varFlags),
	"test": {
		{name: "cloud-run", kind: compatRefused, usage: "rig runs tests where it runs; it has no HCP Terraform or Terraform Enterprise to run them remotely"},
		{name: "allow-deferral", kind: compatRefused, isBool: true, usage: "deferred actions are an experiment of Terraform that rig does not have"},
		{name: "repair", kind: compatIgnored, isBool: true, usage: "Accepted without effect: rig keeps no state of a test run after it (what a cleanup leaves is in errored_test.tfstate), so there is none to repair."},
	},
	"console": {
		{name: "json", kind: compatRefused, isBool: true, usage: "the console prints human-readable values; -json-into writes each result as a JSON message into a file beside them, as OpenTofu allows"},
	},
	"graph": append([]compatFlag{
		{name: "draw-cycles", kind: compatRefused, isBool: true, usage: "rig draws no graph of a configuration or a plan that has a cycle: the \"Cycle:\" error lists each edge of the cycle, with the file and line of the reference behind it"},
		{name: "module-depth", kind: compatIgnored, usage: "Accepted without effect, as in Terraform, where it is deprecated: every module is drawn; `N` is not used."},
		{name: "verbose", kind: compatIgnored, isBool: true, usage: "Accepted without effect: rig's graphs have no nodes that only OpenTofu's verbose graph would show."},
	}, varFlags...),
	"refresh": {
		{name: "destroy", kind: compatRefused, isBool: true, usage: "refresh only updates the state to match remote objects; to destroy them, use \"rig destroy\""},
		{name: "refresh-only", kind: compatIgnored, isBool: true, usage: "Accepted without effect: refresh is always refresh-only."},
	},
	"destroy": {
		{name: "destroy", kind: compatRefused, isBool: true, usage: "the destroy command always runs in destroy mode"},
		{name: "refresh-only", kind: compatRefused, isBool: true, usage: "the destroy command always runs in destroy mode; a refresh-only run is \"rig apply -refresh-only\""},
	},
	"import": append([]compatFlag{ignoreRemoteVersion,
		{name: "parallelism", kind: compatIgnored, usage: "Accepted without effect: import reads one object, so `N` is not used."},
	}, jsonStreamFlags...),
	"force-unlock":           append(slices.Clone(jsonStreamFlags), varFlags...),
	"login":                  append(slices.Clone(jsonStreamFlags), varFlags...),
	"logout":                 slices.Clone(jsonStreamFlags),
	"output":                 slices.Clone(varFlags),
	"show":                   slices.Clone(varFlags),
	"providers":              append([]compatFlag{{name: "test-directory", kind: compatIgnored, usage: "Accepted without effect: the tree lists the providers the configuration requires; a provider only a test file names (in `DIR`) is not listed."}}, varFlags...),
	"providers schema":       slices.Clone(varFlags),
	"providers mirror":       append(slices.Clone(jsonStreamFlags), varFlags...),
	"providers lock":         append([]compatFlag{{name: "enable-plugin-cache", kind: compatIgnored, isBool: true, usage: "Accepted without effect: rig's providers lock finds packages in the plugin cache directory the CLI configuration names, if any, whether or not this is given."}}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state list":             slices.Clone(varFlags),
	"state show":             slices.Clone(varFlags),
	"state pull":             slices.Clone(varFlags),
	"state push":             append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state mv":               append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state rm":               append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"state replace-provider": append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"taint":                  append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"untaint":                append([]compatFlag{ignoreRemoteVersion}, append(slices.Clone(jsonStreamFlags), varFlags...)...),
	"workspace list":         slices.Clone(varFlags),
	"workspace show":         slices.Clone(varFlags),
	"workspace new":          append(slices.Clone(jsonStreamFlags), varFlags...),
	"workspace select":       append(slices.Clone(jsonStreamFlags), varFlags...),
	"workspace delete":       append(slices.Clone(jsonStreamFlags), varFlags...),
}

// compatState is what the compatibility options of one command's parse
// recorded.
type compatState struct {
	refused []string // the names of refused options given, in order
	stream  streamFlags
	// streamed is set when -json or -json-into of compatStream was given.
	streamed bool
}

// addCompatFlags defines on fs the compatibility options of its command
// that it does not define itself.
func (m *Meta) addCompatFlags(fs *flag.FlagSet) *compatState {
	cs := &compatState{}
	for _, cf := range compatFlags[fs.Name()] {
		if fs.Lookup(cf.name) != nil {
			continue
		}
		if cf.name == "var" || cf.name == "var-file" {
			// Root variables, for what the configuration evaluates
			// statically (module sources, backend, encryption).
			m.varFlags(fs, new([]workdir.VarArg))
			continue
		}
		usage := cf.usage
		if cf.kind == compatRefused {
			usage = "Not supported: " + cf.usage + "."
		}
		fs.Var(compatValue{cs: cs, flag: cf}, cf.name, usage)
	}
	return cs
}

// compatValue is the flag.Value of a compatibility option.
type compatValue struct {
	cs   *compatState
	flag compatFlag
}

func (v compatValue) String() string   { return "" }
func (v compatValue) IsBoolFlag() bool { return v.flag.isBool }

func (v compatValue) Set(s string) error {
	switch v.flag.kind {
	case compatRefused:
		if !slices.Contains(v.cs.refused, v.flag.name) {
			v.cs.refused = append(v.cs.refused, v.flag.name)
		}
	case compatStream:
		v.cs.streamed = true
		if v.flag.name == "json" {
			v.cs.stream.json = s != "false"
		} else {
			v.cs.stream.into = s
		}
	}
	return nil
}

// finish reports the refused options given, and starts the JSON stream
// -json or -json-into asks for. It returns the exit status and false when
// the command must not run.
func (cs *compatState) finish(m *Meta, fs *flag.FlagSet) (int, bool) {
	if len(cs.refused) > 0 {
		var ds diag.Diagnostics
		for _, name := range cs.refused {
			i := slices.IndexFunc(compatFlags[fs.Name()], func(cf compatFlag) bool { return cf.name == name })
			ds = ds.Append(diag.Errorf(fmt.Sprintf("Option -%s is not supported", name), "%s", diag.Sentence(compatFlags[fs.Name()][i].usage)))
		}
		m.showDiagnostics(ds)
		m.helpPointer(fs.Name())
		return 1, false
	}
	if cs.streamed && !m.startStream(cs.stream) {
		return 1, false
	}
	return 0, true
}

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

// resolveAlias returns the command args names after its alias, if it uses
// one: "state ls" is "state list"; "env" is "workspace" (its
// subcommands list, select, new and delete), with the warning OpenTofu
// gives for it.
func (m *Meta) resolveAlias(name string, args []string) (string, []string) {
	if name == "env" {
		m.showDiagnostics(diag.Diagnostics{warningf(`The "rig env" family of commands is deprecated`,
			"\"Workspace\" is now the preferred term for what earlier OpenTofu and Terraform versions called \"environment\", to reduce ambiguity caused by the latter term colliding with other concepts.\n\nThe \"rig workspace\" commands should be used instead.")})
		return "workspace", args
	}
	if len(args) > 0 {
		if full, ok := commandAliases[name+" "+args[0]]; ok {
			words := strings.Fields(full)
			return words[0], append([]string{words[1]}, args[1:]...)
		}
	}
	return name, args
}

// preCommand handles a command name before it is looked up: an alias
// becomes the command it stands for (name and args are rewritten), and a
// command rig does not have is refused with its reason (handled is then
// true, with the exit status).
func (m *Meta) preCommand(name *string, args *[]string) (code int, handled bool) {
	if reason, ok := refusedCommands[*name]; ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("rig has no %s command", *name), "%s", diag.Sentence(reason))})
		return 1, true
	}
	*name, *args = m.resolveAlias(*name, *args)
	return 0, false
}
