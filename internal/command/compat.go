package command

import (
	"flag"
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

// compatState is what the compatibility options of one command's parse
// recorded.
type compatState struct {
	refused []string // the names of refused options given, in order
	stream  streamFlags
	// streamed is set when -json or -json-into of cliargs.CompatStream was
	// given.
	streamed bool
}

// addCompatFlags defines on fs the compatibility options of its command
// that it does not define itself.
func (m *Meta) addCompatFlags(fs *flag.FlagSet) *compatState {
	cs := &compatState{}
	for _, cf := range cliargs.CompatFlags(fs.Name()) {
		if fs.Lookup(cf.Name) != nil {
			continue
		}
		if cf.Kind == cliargs.CompatVariables {
			// Root variables, for what the configuration evaluates
			// statically (module sources, backend, encryption).
			m.varFlags(fs, new([]workdir.VarArg))
			continue
		}
		usage := cf.Usage
		if cf.Kind == cliargs.CompatRefused {
			usage = "Not supported: " + cf.Usage + "."
		}
		fs.Var(compatValue{cs: cs, flag: cf}, cf.Name, usage)
	}
	return cs
}

// compatValue is the flag.Value of a compatibility option.
type compatValue struct {
	cs   *compatState
	flag cliargs.CompatFlag
}

func (v compatValue) String() string   { return "" }
func (v compatValue) IsBoolFlag() bool { return v.flag.IsBool }

func (v compatValue) Set(s string) error {
	switch v.flag.Kind {
	case cliargs.CompatRefused:
		if !slices.Contains(v.cs.refused, v.flag.Name) {
			v.cs.refused = append(v.cs.refused, v.flag.Name)
		}
	case cliargs.CompatStream:
		v.cs.streamed = true
		if v.flag.Name == "json" {
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
			flags := cliargs.CompatFlags(fs.Name())
			i := slices.IndexFunc(flags, func(cf cliargs.CompatFlag) bool { return cf.Name == name })
			ds = ds.Append(diag.Errorf(fmt.Sprintf("Option -%s is not supported", name), "%s", diag.Sentence(flags[i].Usage)))
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

// preCommand handles a command name before it is looked up: an alias
// becomes the command it stands for (name and args are rewritten), and a
// command rig does not have is refused with its reason (handled is then
// true, with the exit status).
func (m *Meta) preCommand(name *string, args *[]string) (code int, handled bool) {
	if reason, ok := cliargs.RefusedCommand(*name); ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("rig has no %s command", *name), "%s", diag.Sentence(reason))})
		return 1, true
	}
	var deprecated bool
	*name, *args, deprecated = cliargs.ResolveAlias(*name, *args)
	if deprecated {
		m.showDiagnostics(diag.Diagnostics{warningf(`The "rig env" family of commands is deprecated`,
			"\"Workspace\" is now the preferred term for what earlier OpenTofu and Terraform versions called \"environment\", to reduce ambiguity caused by the latter term colliding with other concepts.\n\nThe \"rig workspace\" commands should be used instead.")})
	}
	return 0, false
}
