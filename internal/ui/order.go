package ui

import (
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// compareInstances orders instances as OpenTofu lists them: shallower
// modules first, then by module path, data resources before managed ones,
// then by type, name and key.
func compareInstances(a, b addrs.AbsResourceInstance) int {
	if a.Module != b.Module {
		da, db := len(a.Module.Steps()), len(b.Module.Steps())
		if da != db {
			return da - db
		}
		return strings.Compare(string(a.Module), string(b.Module))
	}
	ra, rb := a.Resource.Resource, b.Resource.Resource
	switch {
	case ra.Mode != rb.Mode:
		if ra.Mode == addrs.Data {
			return -1
		}
		return 1
	case ra.Type != rb.Type:
		return strings.Compare(ra.Type, rb.Type)
	case ra.Name != rb.Name:
		return strings.Compare(ra.Name, rb.Name)
	case a.Resource.Key == b.Resource.Key:
		return 0
	case a.Resource.Key.Less(b.Resource.Key):
		return -1
	}
	return 1
}
