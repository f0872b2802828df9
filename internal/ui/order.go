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
		da, db := len(moduleSteps(a.Module)), len(moduleSteps(b.Module))
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

// moduleSteps splits a module instance path into its calls:
// `module.a["x"].module.b` → [`module.a["x"]`, `module.b`].
func moduleSteps(m addrs.ModuleInstance) []string {
	s := string(m)
	if s == "" {
		return nil
	}
	var steps []string
	start, inString := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == '.' && strings.HasPrefix(s[i+1:], "module.") && i > start:
			steps = append(steps, s[start:i])
			start = i + 1
		}
	}
	return append(steps, s[start:])
}

// moduleParent returns the module that calls m; the root for a root child.
func moduleParent(m addrs.ModuleInstance) addrs.ModuleInstance {
	steps := moduleSteps(m)
	if len(steps) <= 1 {
		return addrs.RootModule
	}
	return addrs.ModuleInstance(strings.Join(steps[:len(steps)-1], "."))
}
