//go:build !linux

package pgtest

// start does not start clusters on this operating system.
func start() (connStr, skip string, err error) {
	return "", "starting a throwaway cluster is supported on Linux only (and " + Env + " is not set)", nil
}

// Stop does nothing on this operating system.
func Stop() {}
