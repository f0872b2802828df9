package command

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/version"
)

// openLog opens rig's core log as TF_LOG, TF_LOG_CORE and TF_LOG_PATH say.
// Like Terraform and OpenTofu, an unknown level is a warning (and TRACE),
// and a log file that cannot be opened leaves the log on standard error.
func (m *Meta) openLog(getenv func(string) string) {
	s := corelog.FromEnv(getenv)
	if s.Invalid != "" {
		fmt.Fprintf(m.Err, "[WARN] Invalid log level: %q. Defaulting to level: TRACE. Valid levels are: %v\n", s.Invalid, append(slices.Clone(corelog.ValidLevels), "JSON"))
	}
	log, err := corelog.New(s, m.Err)
	if err != nil {
		fmt.Fprintf(m.Err, "Error opening log file: %s\n", err)
	}
	m.log = log
}

// logStart records who runs: rig's version, the Go runtime, the platform,
// the arguments (without variable and backend settings' values) and where.
func (m *Meta) logStart(args []string) {
	if m.log == nil {
		return
	}
	m.log.Info("rig version: "+version.Rig, corelog.String("compatible_with", version.Terraform))
	m.log.Info("Go runtime version: "+runtime.Version(), corelog.String("platform", runtime.GOOS+"_"+runtime.GOARCH))
	m.log.Info("CLI args", corelog.Strings("args", loggedArgs(args)))
	if wd, err := os.Getwd(); err == nil {
		m.log.Debug("started in", corelog.String("dir", wd))
	}
}

// logCommand records the command line once the global options are applied
// and TF_CLI_ARGS and TF_CLI_ARGS_NAME are inserted.
func (m *Meta) logCommand(args []string) {
	if m.log == nil {
		return
	}
	wd, _ := os.Getwd()
	m.log.Info("CLI command args", corelog.Strings("args", loggedArgs(args)))
	m.log.Debug("working directory", corelog.String("dir", wd), corelog.String("data_dir", m.dataDir()),
		corelog.Bool("in_automation", m.inAutomation), corelog.Bool("input_disabled_by_env", m.noInput))
	for _, name := range []string{envArgsPrefix, envArgsVariable(commandName(args))} {
		if v := os.Getenv(name); v != "" {
			words, _, _ := shellWords(v)
			m.log.Debug("arguments from the environment", corelog.String("variable", name), corelog.Strings("args", loggedArgs(words)))
		}
	}
}

// secretFlags are the flags whose values may be secrets: they are logged
// as NAME=(redacted), or KEY=(redacted) for settings.
var secretFlags = map[string]bool{"var": true, "backend-config": true}

// loggedArgs returns args as the log shows them: the values of -var and
// -backend-config replaced (a -backend-config FILE is kept).
func loggedArgs(args []string) []string {
	out := make([]string, len(args))
	redactNext := false
	for i, a := range args {
		switch {
		case a == "--":
			copy(out[i:], args[i:])
			return out
		case redactNext:
			out[i], redactNext = redactSetting(a), false
			continue
		}
		out[i] = a
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !secretFlags[name] {
			continue
		}
		if !hasValue {
			redactNext = true
			continue
		}
		out[i] = a[:len(a)-len(value)] + redactSetting(value)
	}
	return out
}

// redactSetting hides the value of a NAME=VALUE setting; anything else
// (a -backend-config file's path) is kept.
func redactSetting(s string) string {
	if name, _, ok := strings.Cut(s, "="); ok {
		return name + "=(redacted)"
	}
	return s
}
