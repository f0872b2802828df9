package command

import (
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/workdir"
)

// runEnv is what the environment variables that concern every command
// say, read once by Main (readRunEnv). Its zero value is the default run:
// no log, data in .terraform, prompts allowed, advice shown.
type runEnv struct {
	// log is rig's core log (TF_LOG, TF_LOG_CORE, TF_LOG_PATH); nil when
	// off. Never give it a value from configuration, state or variables.
	log *corelog.Logger
	// dataDirEnv is TF_DATA_DIR: the directory used instead of .terraform,
	// relative to the working directory (after -chdir); "" for the default.
	dataDirEnv string
	// inAutomation is TF_IN_AUTOMATION set to anything: rig runs under
	// a wrapper that shows its own next steps, so the advice about which
	// command to run next is left out.
	inAutomation bool
	// noInput is TF_INPUT set to false or 0 (any false value Go's
	// strconv.ParseBool accepts): as if every command had -input=false.
	noInput bool
	// cli is the CLI configuration TF_CLI_CONFIG_FILE (or the default
	// file) holds, read once (cliconfig.go).
	cli cliConfigCache
}

// readRunEnv reads TF_DATA_DIR, TF_IN_AUTOMATION and TF_INPUT; the log is
// opened separately (corelog.Open).
func readRunEnv(getenv func(string) string) runEnv {
	e := runEnv{dataDirEnv: getenv("TF_DATA_DIR"), inAutomation: getenv("TF_IN_AUTOMATION") != ""}
	if v := strings.TrimSpace(getenv("TF_INPUT")); v != "" {
		if b, err := strconv.ParseBool(v); err == nil && !b {
			e.noInput = true
		}
	}
	return e
}

// inputAllowed reports whether rig may prompt: not with -input=false, nor
// with TF_INPUT=false, whatever -input says, as in Terraform and OpenTofu.
func (m *Meta) inputAllowed() bool { return m.Input && !m.noInput }

// dataDir is the data directory TF_DATA_DIR names, or the default, for
// the log (commands use their working directory's, Meta.dir).
func (e *runEnv) dataDir() string {
	if e.dataDirEnv != "" {
		return e.dataDirEnv
	}
	return workdir.DefaultDataDir
}
