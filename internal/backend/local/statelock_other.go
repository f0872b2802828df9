//go:build !linux

package local

// stateLock is empty where open file description locks are not available:
// there rig at most detects the lock Terraform and OpenTofu take on the
// state file and does not take it itself.
type stateLock struct{}

func (s *Store) writeState(data []byte) error { return writeFileAtomic(s.path, data) }

func (s *Store) unlockStateFile() error { return nil }
