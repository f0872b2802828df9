package commandtest

import (
	"os"
	"strings"
)

// UnsetRigEnv unsets, for the rest of the test process, the environment
// variables that change what every rig command prints, where it keeps its
// files or which workspace it uses (TF_LOG and its kin, TF_DATA_DIR,
// TF_IN_AUTOMATION, TF_INPUT, TF_WORKSPACE, TF_ENCRYPTION, TF_CLI_ARGS*): a test that
// needs one sets it itself, so that the developer's or the CI runner's
// environment does not change the outcome.
func UnsetRigEnv() {
	for _, name := range []string{"TF_LOG", "TF_LOG_CORE", "TF_LOG_PROVIDER", "TF_LOG_PATH", "TF_DATA_DIR",
		"TF_IN_AUTOMATION", "TF_INPUT", "TF_WORKSPACE", "TF_ENCRYPTION"} {
		os.Unsetenv(name)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_CLI_ARGS") {
			os.Unsetenv(name)
		}
	}
}
