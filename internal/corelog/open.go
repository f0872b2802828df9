package corelog

import (
	"fmt"
	"io"
	"slices"
)

// Open opens the log as TF_LOG, TF_LOG_CORE and TF_LOG_PATH say (FromEnv,
// New). Like Terraform and OpenTofu, an unknown level is a warning on
// stderr (and TRACE), and a log file that cannot be opened is an error
// there, the log written to stderr instead.
func Open(getenv func(string) string, stderr io.Writer) *Logger {
	s := FromEnv(getenv)
	if s.Invalid != "" {
		fmt.Fprintf(stderr, "[WARN] Invalid log level: %q. Defaulting to level: TRACE. Valid levels are: %v\n", s.Invalid, append(slices.Clone(ValidLevels), "JSON"))
	}
	log, err := New(s, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "Error opening log file: %s\n", err)
	}
	return log
}
