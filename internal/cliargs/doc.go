// Package cliargs owns the command line as the environment extends it and
// as the log shows it: the words of TF_CLI_ARGS and TF_CLI_ARGS_NAME,
// split as a POSIX shell splits them and inserted after the command's
// name as Terraform and OpenTofu insert them, and the arguments with the
// values of -var and -backend-config settings redacted, which is what the
// log records of every run when it starts (LogStart, LogCommand). It also
// holds what rig's command line shares with theirs: the options of
// OpenTofu's and Terraform's commands that rig's do not define, each
// accepted or refused with its reason (CompatFlags, defined on a command's
// flag set by AddCompatFlags), their commands rig
// does not have (RefusedCommand) and the other names of its commands
// (ResolveAlias); flags and positional arguments in any order (Parse);
// and the flag values rig's options share (values.go): a boolean stored
// elsewhere, a repeated flag's list, -refresh, -limit=NAME=N.
//
// It imports internal/corelog and internal/version.
package cliargs
