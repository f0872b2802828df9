package config

import (
	"math"

	"github.com/rig-iac/rig/internal/version"
)

// allowsTerraformLanguage reports whether parts allow some version of the
// Terraform language rig implements: from oldest (version.Terraform, the
// version rig stands in for) through any release of the minor version
// version.TerraformNewest names. A configuration written for a newer
// Terraform ("~> 1.14") is taken, as Terraform takes it; one pinned to a
// release older than oldest, or newer than the newest, is not.
//
// Only the versions at the edges the constraint draws need trying: within
// one minor version, the patch levels a set of comparisons allows form
// runs whose ends lie next to the patch levels the constraint names, or at
// the minor version's first and last release.
func allowsTerraformLanguage(parts []constraintPart, oldest [3]uint64) bool {
	newest, _, _ := parseVersionSegments(version.TerraformNewest)
	for minor := oldest[1]; oldest[0] == newest[0] && minor <= newest[1]; minor++ {
		first := uint64(0)
		if minor == oldest[1] {
			first = oldest[2]
		}
		patches := []uint64{first, math.MaxUint32}
		for _, p := range parts {
			if p.segments[0] != oldest[0] || p.segments[1] != minor {
				continue
			}
			patches = append(patches, p.segments[2], p.segments[2]+1)
			if p.segments[2] > 0 {
				patches = append(patches, p.segments[2]-1)
			}
		}
		for _, patch := range patches {
			if patch >= first && allowsVersion(parts, [3]uint64{oldest[0], minor, patch}) {
				return true
			}
		}
	}
	return allowsVersion(parts, oldest)
}
