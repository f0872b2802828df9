// Package local owns the local backend: state in files laid out as
// Terraform and OpenTofu lay them out — terraform.tfstate in the working
// directory for the default workspace, terraform.tfstate.d/NAME/terraform.tfstate
// for the others, terraform.tfstate.backup beside each (the state as it was
// before this run's first write), and .terraform.tfstate.lock.info beside
// each while it is locked.
//
// Writes are atomic and durable: a temporary file in the same directory,
// fsync, rename over the state file, fsync of the directory (on Windows,
// which cannot sync a directory, a rename written through). State,
// backup and journal files are written with mode 0600 whatever the umask:
// an existing file keeps its own mode less any group and other bits, so a
// stricter mode stays and a wider one is narrowed (on Windows a mode only
// sets or clears the read-only attribute; who may read a file is the
// directory's access control list's business). The lock is an advisory
// flock(2) on the lock-info file (on Windows a LockFileEx lock on one byte
// far past its content), so the operating system releases it when the
// holder dies; an info file left by a dead process is not a lock. While it
// holds the lock the info file holds the holder's LockInfo as JSON, as
// Terraform writes it.
//
// Terraform and OpenTofu lock differently: an fcntl(2) record lock on the
// state file itself (LockFileEx on Windows). Lock checks for such a lock and
// reports it as a LockError, so rig does not start while Terraform or
// OpenTofu runs on the same state. On Linux rig also takes that lock, as an
// open file description lock moved to each new state file before it is
// renamed into place, so neither starts while rig runs; elsewhere the
// reverse is not detected (macOS and the BSDs have no open file description
// locks, and Windows's are mandatory: while held, no other handle could
// read the state file).
//
// It imports only the standard library and internal/backend.
package local
