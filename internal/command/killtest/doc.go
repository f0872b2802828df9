// Package killtest holds the tests that kill rig, as a process, part-way
// through applies — at random moments over many iterations, with local
// state, PostgreSQL and S3 — and check that nothing it reported complete
// is lost, no object is left untracked and no provider outlives it. They
// share internal/command's harness through commandtest and run beside
// the other packages' tests.
//
// It imports no rig package: it has only tests, which import the command
// package and its commandtest.
package killtest
