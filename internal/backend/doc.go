// Package backend owns how state is stored: each workspace's state as an
// opaque snapshot of bytes, the lock that serialises writers of one
// workspace, and the list of workspaces. It defines the Backend and Store
// interfaces, the lock description Terraform and OpenTofu record
// (LockInfo, LockError), and LockWithTimeout; the implementations live in
// subpackages: local (files, as Terraform lays them out), pg (PostgreSQL),
// http (a REST server), s3 (S3 objects), inmem (tests).
// backendtest holds the behaviour every implementation must show.
//
// A backend never looks inside a snapshot: reading and writing the state
// format is internal/state/statefile's job, done by the caller.
//
// It imports only the standard library and internal/version.
package backend
