// Package proctest holds the tests that run rig as a process, or several
// at once: interrupts, concurrent applies of PostgreSQL state from many
// processes, locks held by killed processes, the providers a killed rig
// leaves behind, and the README's quickstart and tour, followed as a
// newcomer types them. They run rig in-process through commandtest/cli, and as a
// process through commandtest, beside the other packages' tests.
//
// It imports no rig package: it has only tests, which import commandtest and
// commandtest/cli.
package proctest
