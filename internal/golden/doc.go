// Package golden compares what a test produced with the golden file that
// holds what it should be, and rewrites that file instead when the tests
// run with -update, the flag it declares for the tests that import it
// (or follows, when a package initialized before it declared one; a test
// package's own files, initialized after it, take golden.Update instead of
// declaring theirs). Only tests import it.
//
// It imports no rig package.
package golden
