// Package backendtest owns the behaviour every backend.Backend must show,
// as a test suite that each implementation's tests run against it: snapshot
// reads and writes, workspaces, and lock exclusion, reporting and waiting.
//
// It imports only the standard library and internal/backend.
package backendtest
