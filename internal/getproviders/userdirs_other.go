//go:build !windows

package getproviders

import (
	"os"
	"path/filepath"
)

// userConfigFiles returns the CLI configuration files looked for when no
// variable names one, in order: ~/.terraformrc, then ~/.tofurc.
func userConfigFiles() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".terraformrc"), filepath.Join(home, ".tofurc")}
}

// userConfigDir returns the directory of terraform login's credentials
// file and of the implied plugin mirror, ~/.terraform.d; "" when there is
// no home directory.
func userConfigDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".terraform.d")
}
