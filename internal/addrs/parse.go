package addrs

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ParseAbsResourceInstanceStr parses a resource instance address as a user
// types it on the command line: aws_instance.a, data.x.y, r.n[0], r.n["k"],
// module.m.r.n.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return AbsResourceInstance{}, fmt.Errorf("invalid resource instance address %q: %s", s, diags[0].Summary)
	}
	addr, err := ParseAbsResourceInstance(trav)
	if err != nil {
		return AbsResourceInstance{}, fmt.Errorf("invalid resource instance address %q: %w", s, err)
	}
	return addr, nil
}

// ParseAbsResourceInstance parses a traversal into a resource instance address.
func ParseAbsResourceInstance(trav hcl.Traversal) (AbsResourceInstance, error) {
	mod, rest, err := parseModulePrefix(trav)
	if err != nil {
		return AbsResourceInstance{}, err
	}
	ri, rest, err := parseResourceInstance(rest)
	if err != nil {
		return AbsResourceInstance{}, err
	}
	if len(rest) != 0 {
		return AbsResourceInstance{}, fmt.Errorf("unexpected extra operators after address")
	}
	return AbsResourceInstance{Module: mod, Resource: ri}, nil
}

// ParseAbsResourceStr parses a resource address without instance key.
func ParseAbsResourceStr(s string) (AbsResource, error) {
	ri, err := ParseAbsResourceInstanceStr(s)
	if err != nil {
		return AbsResource{}, err
	}
	if !ri.Resource.Key.IsNone() {
		return AbsResource{}, fmt.Errorf("invalid resource address %q: an instance key is not allowed here", s)
	}
	return ri.ContainingResource(), nil
}

// ParseModuleInstancePrefix parses the module calls at the start of a
// traversal (module.a["x"].module.b) and returns them with the rest.
func ParseModuleInstancePrefix(trav hcl.Traversal) (ModuleInstance, hcl.Traversal, error) {
	return parseModulePrefix(trav)
}

func parseModulePrefix(trav hcl.Traversal) (ModuleInstance, hcl.Traversal, error) {
	var parts []string
	for len(trav) > 0 && traverserName(trav[0]) == "module" {
		if len(trav) < 2 {
			return "", nil, fmt.Errorf("module name required after \"module\"")
		}
		name := traverserName(trav[1])
		if name == "" {
			return "", nil, fmt.Errorf("module name required after \"module\"")
		}
		part := "module." + name
		trav = trav[2:]
		if len(trav) > 0 {
			if idx, ok := trav[0].(hcl.TraverseIndex); ok {
				k, err := keyFromValue(idx.Key)
				if err != nil {
					return "", nil, err
				}
				part += k.String()
				trav = trav[1:]
			}
		}
		parts = append(parts, part)
	}
	return ModuleInstance(strings.Join(parts, ".")), trav, nil
}

func parseResourceInstance(trav hcl.Traversal) (ResourceInstance, hcl.Traversal, error) {
	var ri ResourceInstance
	ri.Resource.Mode = Managed
	if len(trav) > 0 && traverserName(trav[0]) == "data" {
		ri.Resource.Mode = Data
		trav = trav[1:]
	} else if len(trav) > 0 && traverserName(trav[0]) == "ephemeral" {
		ri.Resource.Mode = Ephemeral
		trav = trav[1:]
	}
	if len(trav) < 2 {
		return ri, nil, fmt.Errorf("resource address must have a type and a name")
	}
	ri.Resource.Type = traverserName(trav[0])
	ri.Resource.Name = traverserName(trav[1])
	if ri.Resource.Type == "" || ri.Resource.Name == "" {
		return ri, nil, fmt.Errorf("resource address must have a type and a name")
	}
	trav = trav[2:]
	if len(trav) > 0 {
		if idx, ok := trav[0].(hcl.TraverseIndex); ok {
			k, err := keyFromValue(idx.Key)
			if err != nil {
				return ri, nil, err
			}
			ri.Key = k
			trav = trav[1:]
		}
	}
	return ri, trav, nil
}

func traverserName(t hcl.Traverser) string {
	switch t := t.(type) {
	case hcl.TraverseRoot:
		return t.Name
	case hcl.TraverseAttr:
		return t.Name
	}
	return ""
}

// KeyFromValue converts a count index or for_each key value into an InstanceKey.
func KeyFromValue(v cty.Value) (InstanceKey, error) { return keyFromValue(v) }

func keyFromValue(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return NoKey, fmt.Errorf("instance key must be a known, non-null value")
	}
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != big.Exact || i < 0 {
			return NoKey, fmt.Errorf("instance index must be a non-negative whole number")
		}
		return IntKey(int(i)), nil
	}
	return NoKey, fmt.Errorf("instance key must be a string or a number")
}

// parseKeySuffix parses one index step, `["a"]` or `[0]`, and nothing else.
func parseKeySuffix(s string) (InstanceKey, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte("k"+s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() || len(trav) != 2 {
		return NoKey, fmt.Errorf("invalid instance key %q", s)
	}
	idx, ok := trav[1].(hcl.TraverseIndex)
	if !ok {
		return NoKey, fmt.Errorf("invalid instance key %q", s)
	}
	return keyFromValue(idx.Key)
}
