// Package golden compares what a test produced with the golden file that
// holds what it should be, and rewrites that file instead when the tests
// run with -update, the flag it declares for the tests that import it.
// Only tests import it.
//
// It imports no rig package.
package golden
