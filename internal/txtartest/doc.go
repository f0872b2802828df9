// Package txtartest runs the specifications written as txtar archives
// under a package's testdata: one subtest per archive, whose output is
// compared with a section of the archive (by default "want") and, with
// the tests' -update flag, written into it.
//
// It imports internal/diag.
package txtartest
