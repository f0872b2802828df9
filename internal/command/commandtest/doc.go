// Package commandtest is the harness shared by the tests that drive rig
// as its users do: in-process through internal/command's own tests, and
// as a process through internal/command/proctest. It builds the rig binary
// and the test provider plugin once per test process, lays out working
// directories, reads state files, normalizes output for golden files, and
// gives each test its own PostgreSQL schema or S3 bucket with the backend
// block that selects it.
//
// It imports internal/backend, internal/backend/pg,
// internal/backend/pg/pgtest, internal/backend/s3,
// internal/backend/s3/s3test, internal/state/journal and
// internal/state/statefile — never the command package, whose own tests use
// it.
package commandtest
