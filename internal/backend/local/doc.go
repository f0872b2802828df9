// Package local owns the local backend: state in files laid out as
// Terraform and OpenTofu lay them out — terraform.tfstate in the working
// directory for the default workspace, terraform.tfstate.d/NAME/terraform.tfstate
// for the others, terraform.tfstate.backup beside each (the state as it was
// before this run's first write), and .terraform.tfstate.lock.info beside
// each while it is locked.
//
// Writes are atomic and durable: a temporary file in the same directory,
// fsync, rename over the state file, fsync of the directory. State,
// backup and journal files are written with mode 0600 whatever the umask:
// an existing file keeps its own mode less any group and other bits, so a
// stricter mode stays and a wider one is narrowed. The lock is an
// advisory flock(2) on the lock-info file, so the operating system releases
// it when the holder dies; an info file left by a dead process is not a
// lock. While it holds the lock the info file holds the holder's LockInfo
// as JSON, as Terraform writes it.
//
// Terraform and OpenTofu lock differently: an fcntl(2) record lock on the
// state file itself. Lock checks for such a lock and reports it as a
// LockError, so rig does not start while Terraform or OpenTofu runs on the
// same state; the reverse is not detected (they do not look at flock locks).
//
// It imports only the standard library and internal/backend.
package local
