package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/workdir"
)

// parseArgs parses a command's arguments with fs, which m.flagSet made,
// flags and positional arguments in any order (cliargs.Parse). When ok,
// fs.Args() holds the positional arguments in the order given.
//
// -h, -help or --help prints the command's help on standard output; a flag
// fs does not define, or a bad flag value, is reported on standard error
// with the nearest flag's name and where to find the command's help. Then
// ok is false and code is the exit status: 0 after help, 1 after an error.
func (m *Meta) parseArgs(fs *flag.FlagSet, args []string) (code int, ok bool) {
	// The options of OpenTofu and Terraform the command does not define;
	// -var and -var-file set the root variables static expressions use.
	compat := cliargs.AddCompatFlags(fs, func(fs *flag.FlagSet) { m.varFlags(fs, new([]workdir.VarArg)) })
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := cliargs.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		writeCommandHelp(m.Out, fs)
		return 0, false
	}
	if err != nil {
		m.flagError(fs, err)
		return 1, false
	}
	return m.finishCompat(compat, fs)
}

// flagError reports a parse error of the flag package as Terraform does,
// adding the nearest defined flag when the flag is unknown.
func (m *Meta) flagError(fs *flag.FlagSet, err error) {
	detail := err.Error()
	if name, ok := strings.CutPrefix(detail, "flag provided but not defined: -"); ok {
		if near := nearestFlag(fs, name); near != "" {
			detail += fmt.Sprintf("\n\nDid you mean \"-%s\"?", near)
		}
	}
	m.usageError(fs, diag.Diagnostics{diag.Errorf("Failed to parse command-line flags", "%s", detail)})
}

// argsError reports positional arguments a command cannot take, with
// where to find its help, and returns the exit status 1.
func (m *Meta) argsError(fs *flag.FlagSet, summary, detail string) int {
	m.usageError(fs, diag.Diagnostics{diag.Errorf(summary, "%s", detail)})
	return 1
}

// nearestFlag returns the name of fs's flag nearest to name, or "" when
// none is near enough to be what was meant.
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return lang.NameSuggestion(name, names)
}
