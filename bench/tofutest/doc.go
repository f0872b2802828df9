// Package tofutest runs the test command of rig and of OpenTofu (or
// Terraform) on directories of test fixtures and compares what they give,
// run block by run block: the comparison behind bench/cmd/testcompare and
// behind the fixture tests of internal/command, and the timing of the
// test-suite benchmark.
//
// It imports no rig package: it reads the tools' -json output.
package tofutest
