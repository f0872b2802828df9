package config

import (
	"testing"

	"github.com/rig-iac/rig/internal/version"
)

// A .tf file's required_version is met by any version from the one rig
// stands in for (1.10.6) through the newest Terraform whose language rig
// accepts (1.16.x): a configuration written for a newer Terraform runs.
func TestAllowsTerraformLanguage(t *testing.T) {
	if version.Terraform != "1.10.6" || version.TerraformNewest != "1.16" {
		t.Fatalf("table written for 1.10.6 through 1.16, not %s through %s", version.Terraform, version.TerraformNewest)
	}
	oldest, _, _ := parseVersionSegments(version.Terraform)
	tests := []struct {
		constraint string
		want       bool
	}{
		{">= 1.0", true},
		{">= 1.11", true},
		{">= 1.14.3", true},
		{"~> 1.13", true},
		{"~> 1.15.0", true},
		{"1.16.2", true},
		{">= 1.12, < 1.13", true},
		{"~> 1.9.0", false}, // before 1.10.6
		{"1.10.5", false},   // before 1.10.6
		{"< 1.10.6", false}, // before 1.10.6
		{">= 1.17", false},  // after 1.16.x
		{"~> 2.0", false},   // after 1.16.x
		{">= 1.16.0, != 1.16.0", true},
		{"> 1.10.6, < 1.10.7", false}, // no version between
		{"~> 1.10.6, != 1.10.6", true},
		{"1.10.6", true},
	}
	for _, tt := range tests {
		if !validVersionConstraint(tt.constraint) {
			t.Fatalf("%q: not a valid constraint", tt.constraint)
		}
		if got := allowsTerraformLanguage(parseConstraintParts(tt.constraint), oldest); got != tt.want {
			t.Errorf("%q allows a version from 1.10.6 to 1.16.x = %v, want %v", tt.constraint, got, tt.want)
		}
	}
}
