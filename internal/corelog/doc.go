// Package corelog owns rig's own log, the "core" log of TF_LOG: what rig
// itself does — its version and arguments, the configuration it loads,
// the graphs it builds, each operation it runs, the providers it starts,
// the state it writes — as leveled, structured lines (Terraform's text
// format, or JSON lines with TF_LOG=json), on standard error or appended to
// the file TF_LOG_PATH names.
//
// The log never records a value that comes from configuration, state,
// variables or a provider: only names, addresses, counts, durations, paths
// and rig's own messages. Provider plugins log through the plugin client
// (internal/provider/plugin), under TF_LOG_PROVIDER; both may write to the
// same TF_LOG_PATH file, each line with a single append.
//
// It imports no rig package.
package corelog
