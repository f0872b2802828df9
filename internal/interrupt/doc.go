// Package interrupt owns how a rig command stops when it is interrupted
// (SIGINT, or SIGTERM): the first interrupt cancels the command's context
// and, outside a phase that changes state or remote objects, exits after a
// grace period, running the cleanups registered (releasing the state
// lock, stopping providers); inside such a phase rig stops only
// gracefully, each operation finished and recorded. A second interrupt
// asks the providers to stop. rig test's suite stops and cancels on the
// first and second interrupt instead (Twice).
//
// It imports no rig package.
package interrupt
