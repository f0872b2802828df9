package jsonformat

import "github.com/rig-iac/rig/internal/getproviders"

// NewVersion is the document of version -json: the versions the lock
// file selects (locks, none when nil), the platform, and the Terraform
// version rig is compatible with beside rig's own.
func NewVersion(locks []*getproviders.Lock, platform, terraform, rig string) Version {
	selections := map[string]string{}
	for _, l := range locks {
		selections[l.Provider.String()] = l.Version.String()
	}
	return Version{TerraformVersion: terraform, Platform: platform, ProviderSelections: selections, RigVersion: rig}
}
