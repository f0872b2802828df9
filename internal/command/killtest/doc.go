// Package killtest holds the tests that kill rig, as a process, part-way
// through applies — at random moments over many iterations, with local
// state, PostgreSQL and S3 — and check that nothing it reported complete
// is lost, no object is left untracked and no provider outlives it. They
// run rig in-process through commandtest/cli, and as a process through
// commandtest, beside the other packages' tests.
//
// It imports no rig package: it has only tests, which import commandtest and
// commandtest/cli.
package killtest
