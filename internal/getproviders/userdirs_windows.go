package getproviders

import (
	"os"
	"path/filepath"
)

// userConfigFiles returns the CLI configuration files looked for when no
// variable names one, where Terraform and OpenTofu look on Windows, in
// order: %APPDATA%\terraform.rc, then %APPDATA%\tofu.rc.
func userConfigFiles() []string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(dir, "terraform.rc"), filepath.Join(dir, "tofu.rc")}
}

// userConfigDir returns the directory of terraform login's credentials
// file and of the implied plugin mirror, %APPDATA%\terraform.d; "" when
// %APPDATA% is not set.
func userConfigDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "terraform.d")
}
