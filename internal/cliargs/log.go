package cliargs

import (
	"os"
	"runtime"

	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/version"
)

// LogStart records in log who runs: rig's version, the Go runtime, the
// platform, the arguments (Logged: without variable and backend
// settings' values) and the directory rig started in. A nil log records
// nothing.
func LogStart(log *corelog.Logger, args []string) {
	if log == nil {
		return
	}
	log.Info("rig version: "+version.Rig, corelog.String("compatible_with", version.Terraform))
	log.Info("Go runtime version: "+runtime.Version(), corelog.String("platform", runtime.GOOS+"_"+runtime.GOARCH))
	log.Info("CLI args", corelog.Strings("args", Logged(args)))
	if wd, err := os.Getwd(); err == nil {
		log.Debug("started in", corelog.String("dir", wd))
	}
}

// LogCommand records in log the command line once the global options are
// applied and TF_CLI_ARGS and TF_CLI_ARGS_NAME are inserted (EnvArgs,
// with the same isCommand and getenv), the words each of those variables
// gave, and the working directory with the facts of the run attrs says.
func LogCommand(log *corelog.Logger, args []string, isCommand func(name string) bool, getenv func(string) string, attrs ...corelog.Attr) {
	if log == nil {
		return
	}
	wd, _ := os.Getwd()
	log.Info("CLI command args", corelog.Strings("args", Logged(args)))
	log.Debug("working directory", append([]corelog.Attr{corelog.String("dir", wd)}, attrs...)...)
	for _, name := range []string{Prefix, EnvVariable(CommandName(args, isCommand))} {
		if v := getenv(name); v != "" {
			words, _, _ := ShellWords(v)
			log.Debug("arguments from the environment", corelog.String("variable", name), corelog.Strings("args", Logged(words)))
		}
	}
}
