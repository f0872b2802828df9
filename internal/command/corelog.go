package command

import (
	"fmt"
	"os"
	"runtime"
	"slices"

	"github.com/rig-iac/rig/internal/cliargs"
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
	m.log.Info("CLI args", corelog.Strings("args", cliargs.Logged(args)))
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
	m.log.Info("CLI command args", corelog.Strings("args", cliargs.Logged(args)))
	m.log.Debug("working directory", corelog.String("dir", wd), corelog.String("data_dir", m.dataDir()),
		corelog.Bool("in_automation", m.inAutomation), corelog.Bool("input_disabled_by_env", m.noInput))
	for _, name := range []string{cliargs.Prefix, cliargs.EnvVariable(cliargs.CommandName(args, isCommand))} {
		if v := os.Getenv(name); v != "" {
			words, _, _ := cliargs.ShellWords(v)
			m.log.Debug("arguments from the environment", corelog.String("variable", name), corelog.Strings("args", cliargs.Logged(words)))
		}
	}
}
