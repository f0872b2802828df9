//go:build !linux

package local

import "io"

// stateLock is empty where open file description locks are not available:
// there rig at most detects the lock Terraform and OpenTofu take on the
// state file and does not take it itself.
type stateLock struct{}

func (s *Store) writeState(encode func(io.Writer) (bool, error)) (bool, error) {
	f, err := replaceFile(s.path, encode, nil)
	if err != nil {
		return false, err
	}
	return f != nil, closeFile(f)
}

func (s *Store) unlockStateFile() error { return nil }
