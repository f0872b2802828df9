package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// RefKind is the kind of object a Reference names.
type RefKind uint8

const (
	// InvalidRef is the zero value, never returned by ParseRef.
	InvalidRef RefKind = iota
	// ResourceRef is a managed or data resource (or one of its instances).
	ResourceRef
	// InputVariable is var.NAME.
	InputVariable
	// LocalValue is local.NAME.
	LocalValue
	// CountIndex is count.index.
	CountIndex
	// EachKey is each.key.
	EachKey
	// EachValue is each.value.
	EachValue
	// PathModule is path.module.
	PathModule
	// PathRoot is path.root.
	PathRoot
	// PathCwd is path.cwd.
	PathCwd
	// TerraformWorkspace is terraform.workspace.
	TerraformWorkspace
	// Self is self, in provisioner, connection and postcondition blocks.
	Self
	// ModuleCallOutput is module.NAME (optionally [KEY] and .OUTPUT).
	ModuleCallOutput
	// TerraformApplying is terraform.applying: true during an apply, an
	// ephemeral value.
	TerraformApplying
)

// String returns the kind's name, for tests and debugging.
func (k RefKind) String() string {
	switch k {
	case ResourceRef:
		return "ResourceRef"
	case InputVariable:
		return "InputVariable"
	case LocalValue:
		return "LocalValue"
	case CountIndex:
		return "CountIndex"
	case EachKey:
		return "EachKey"
	case EachValue:
		return "EachValue"
	case PathModule:
		return "PathModule"
	case PathRoot:
		return "PathRoot"
	case PathCwd:
		return "PathCwd"
	case TerraformWorkspace:
		return "TerraformWorkspace"
	case Self:
		return "Self"
	case ModuleCallOutput:
		return "ModuleCallOutput"
	case TerraformApplying:
		return "TerraformApplying"
	}
	return "InvalidRef"
}

// Reference is one reference found in an expression.
type Reference struct {
	Kind RefKind
	// Name is the variable, local value or module call name.
	Name string
	// Output is the output name of a ModuleCallOutput reference
	// (module.NAME.OUTPUT); "" for a reference to the whole module.
	Output string
	// Resource is the referenced resource, for ResourceRef.
	Resource addrs.Resource
	// Key is the instance key written after the resource (or module call),
	// with KeyGiven true, when it is a literal: terraform_data.a[0] gives
	// IntKey(0). A computed index (a[count.index]) is not part of the
	// reference: KeyGiven is false.
	Key      addrs.InstanceKey
	KeyGiven bool
	// Range covers the reference itself (terraform_data.a[0], var.x).
	Range hcl.Range
	// Remaining is the rest of the traversal after the referenced object,
	// e.g. .output for terraform_data.a.output; nil when there is none.
	Remaining hcl.Traversal

	// ViaTofu records the tofu.ATTR spelling of a TerraformWorkspace or
	// TerraformApplying reference, OpenTofu's other name for terraform.ATTR.
	ViaTofu bool

	// viaResourceRoot records the resource.TYPE.NAME spelling, so that
	// EvalContext defines the "resource" root only when it is used.
	viaResourceRoot bool
}

// terraformRoot is the name a TerraformWorkspace or TerraformApplying
// reference is written under: "terraform", or OpenTofu's "tofu".
func (r *Reference) terraformRoot() string {
	if r.ViaTofu {
		return "tofu"
	}
	return "terraform"
}

// String returns the referenced object in configuration syntax, without
// Remaining.
func (r *Reference) String() string {
	switch r.Kind {
	case ResourceRef:
		if r.KeyGiven {
			return r.Resource.Instance(r.Key).String()
		}
		return r.Resource.String()
	case InputVariable:
		return "var." + r.Name
	case LocalValue:
		return "local." + r.Name
	case CountIndex:
		return "count.index"
	case EachKey:
		return "each.key"
	case EachValue:
		return "each.value"
	case PathModule:
		return "path.module"
	case PathRoot:
		return "path.root"
	case PathCwd:
		return "path.cwd"
	case TerraformWorkspace:
		return r.terraformRoot() + ".workspace"
	case TerraformApplying:
		return r.terraformRoot() + ".applying"
	case Self:
		return "self"
	case ModuleCallOutput:
		s := "module." + r.Name
		if r.KeyGiven {
			s += r.Key.String()
		}
		if r.Output != "" {
			s += "." + r.Output
		}
		return s
	}
	return "<invalid reference>"
}

// ReferencesInExpr returns the references expr makes, in source order. A nil
// expr has none.
func ReferencesInExpr(expr hcl.Expression) ([]*Reference, diag.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return References(expr.Variables())
}

// ReferencesInBody returns the references body makes when decoded with
// spec, including those inside "dynamic" blocks (their for_each, labels and
// content, minus the iterator symbol).
func ReferencesInBody(body hcl.Body, spec hcldec.Spec) ([]*Reference, diag.Diagnostics) {
	if body == nil {
		return nil, nil
	}
	return References(dynblock.VariablesHCLDec(body, spec))
}

// ReferencesInAnyBody returns the references body makes, read without its
// schema (every attribute of every nested block; see bodyTraversals), for
// bodies whose schema is not at hand, such as a provider block's.
func ReferencesInAnyBody(body hcl.Body) ([]*Reference, diag.Diagnostics) {
	return References(bodyTraversals(body))
}

// References parses each traversal with ParseRef, dropping the invalid ones
// (reported in the diagnostics).
func References(travs []hcl.Traversal) ([]*Reference, diag.Diagnostics) {
	if len(travs) == 0 {
		return nil, nil
	}
	var diags diag.Diagnostics
	refs := make([]*Reference, 0, len(travs))
	for _, t := range travs {
		ref, d := ParseRef(t)
		diags = append(diags, d...)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs, diags
}

// ParseRef interprets an absolute traversal as a reference. With error
// diagnostics ("Invalid reference" and friends, worded as OpenTofu words
// them) the result is nil; it is nil without diagnostics for a primitive
// type name standing alone (string, number, bool, any), which is a type
// constraint (convert's second argument), not a reference, as in
// Terraform 1.15.
func ParseRef(trav hcl.Traversal) (*Reference, diag.Diagnostics) {
	if len(trav) == 0 || trav.IsRelative() {
		return nil, diag.Diagnostics{diag.Errorf("Invalid reference", "A reference must start with a name.")}
	}
	if len(trav) == 1 {
		switch trav.RootName() {
		case "string", "number", "bool", "any":
			return nil, nil
		}
	}
	ref, hdiags := parseRef(trav)
	diags := diag.FromHCL(hdiags)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(ref.Remaining) == 0 {
		ref.Remaining = nil
	}
	return ref, diags
}

func invalidRef(rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: rng.Ptr()}}
}

func parseRef(trav hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := trav.RootName()
	rootRange := trav[0].SourceRange()

	switch root {
	case "count":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		if name != "index" {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  `Invalid "count" attribute`,
				Detail:   fmt.Sprintf(`The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, name),
				Subject:  rng.Ptr(),
			}}
		}
		return &Reference{Kind: CountIndex, Range: rng, Remaining: remain}, nil

	case "each":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		kind := EachKey
		switch name {
		case "key":
		case "value":
			kind = EachValue
		default:
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  `Invalid "each" attribute`,
				Detail:   fmt.Sprintf(`The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, name),
				Subject:  rng.Ptr(),
			}}
		}
		return &Reference{Kind: kind, Range: rng, Remaining: remain}, nil

	case "data":
		if len(trav) < 3 {
			return nil, invalidRef(trav.SourceRange(), `The "data" object must be followed by two attribute names: the data source type and the resource name.`)
		}
		return parseResourceRef(addrs.Data, rootRange, trav[1:])

	case "ephemeral":
		if len(trav) < 3 {
			return nil, invalidRef(trav.SourceRange(), `The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.`)
		}
		return parseResourceRef(addrs.Ephemeral, rootRange, trav[1:])

	case "list":
		if len(trav) < 3 {
			return nil, invalidRef(trav.SourceRange(), `The "list" object must be followed by two attribute names: the list resource type and the list block name.`)
		}
		return parseResourceRef(addrs.List, rootRange, trav[1:])

	case "resource":
		if len(trav) < 3 {
			return nil, invalidRef(trav.SourceRange(), `The "resource" object must be followed by two attribute names: the resource type and the resource name.`)
		}
		ref, diags := parseResourceRef(addrs.Managed, rootRange, trav[1:])
		if ref != nil {
			ref.viaResourceRoot = true
		}
		return ref, diags

	case "local", "var":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		kind := LocalValue
		if root == "var" {
			kind = InputVariable
		}
		return &Reference{Kind: kind, Name: name, Range: rng, Remaining: remain}, nil

	case "module":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		ref := &Reference{Kind: ModuleCallOutput, Name: name, Range: rng}
		if len(remain) > 0 {
			if idx, ok := remain[0].(hcl.TraverseIndex); ok {
				key, err := addrs.KeyFromValue(idx.Key)
				if err != nil {
					return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid index key", Detail: fmt.Sprintf("Invalid index for module instance: %s.", err), Subject: idx.SrcRange.Ptr()}}
				}
				ref.Key, ref.KeyGiven = key, true
				ref.Range = hcl.RangeBetween(rng, idx.SrcRange)
				remain = remain[1:]
			}
		}
		if len(remain) > 0 {
			attr, ok := remain[0].(hcl.TraverseAttr)
			if !ok {
				return nil, invalidRef(remain[0].SourceRange(), "Module instance objects do not support this operation.")
			}
			ref.Output = attr.Name
			ref.Range = hcl.RangeBetween(ref.Range, attr.SrcRange)
			remain = remain[1:]
		}
		ref.Remaining = remain
		return ref, nil

	case "path":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		ref := &Reference{Range: rng, Remaining: remain}
		switch name {
		case "module":
			ref.Kind = PathModule
		case "root":
			ref.Kind = PathRoot
		case "cwd":
			ref.Kind = PathCwd
		default:
			suggestion := nameSuggestion(name, []string{"cwd", "module", "root"})
			if suggestion != "" {
				suggestion = fmt.Sprintf(" Did you mean %q?", suggestion)
			}
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  `Invalid "path" attribute`,
				Detail:   fmt.Sprintf(`The "path" object does not have an attribute named %q.%s`, name, suggestion),
				Subject:  rng.Ptr(),
			}}
		}
		return ref, nil

	case "self":
		return &Reference{Kind: Self, Range: rootRange, Remaining: trav[1:]}, nil

	case "terraform", "tofu":
		name, rng, remain, diags := parseSingleAttrRef(trav)
		if diags.HasErrors() {
			return nil, diags
		}
		tofu := root == "tofu"
		switch name {
		case "workspace":
			return &Reference{Kind: TerraformWorkspace, Range: rng, Remaining: remain, ViaTofu: tofu}, nil
		case "applying":
			return &Reference{Kind: TerraformApplying, Range: rng, Remaining: remain, ViaTofu: tofu}, nil
		case "env":
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf(`Invalid %q attribute`, root),
				Detail:   fmt.Sprintf(`The %s.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the %s.workspace attribute.`, root, root),
				Subject:  rng.Ptr(),
			}}
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf(`Invalid %q attribute`, root),
			Detail:   fmt.Sprintf(`The %q object does not have an attribute named %q. The only supported attribute is %s.workspace, the name of the currently-selected workspace.`, root, name, root),
			Subject:  rng.Ptr(),
		}}

	case "template", "lazy", "arg":
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reserved symbol name",
			Detail:   fmt.Sprintf("The symbol name %q is reserved for future use by the language. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root),
			Subject:  rootRange.Ptr(),
		}}
	}
	return parseResourceRef(addrs.Managed, rootRange, trav)
}

// parseResourceRef parses TYPE.NAME[KEY]... where trav starts at TYPE.
func parseResourceRef(mode addrs.ResourceMode, start hcl.Range, trav hcl.Traversal) (*Reference, hcl.Diagnostics) {
	if len(trav) < 2 {
		return nil, invalidRef(hcl.RangeBetween(trav[0].SourceRange(), trav[len(trav)-1].SourceRange()),
			`A reference to a resource type must be followed by at least one attribute access, specifying the resource name.`)
	}
	var typeName string
	switch t := trav[0].(type) {
	case hcl.TraverseRoot:
		typeName = t.Name
	case hcl.TraverseAttr:
		typeName = t.Name
	default:
		return nil, invalidRef(trav[0].SourceRange(), `The "data" object does not support this operation.`)
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		what := "resource type"
		if mode == addrs.Data {
			what = "data source"
		}
		return nil, invalidRef(trav[1].SourceRange(), fmt.Sprintf(`A reference to a %s must be followed by at least one attribute access, specifying the resource name.`, what))
	}
	ref := &Reference{
		Kind:     ResourceRef,
		Resource: addrs.Resource{Mode: mode, Type: typeName, Name: attr.Name},
		Range:    hcl.RangeBetween(start, attr.SrcRange),
	}
	remain := trav[2:]
	if len(remain) > 0 {
		if idx, ok := remain[0].(hcl.TraverseIndex); ok {
			key, err := addrs.KeyFromValue(idx.Key)
			if err != nil {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid index key", Detail: fmt.Sprintf("Invalid index for resource instance: %s.", err), Subject: idx.SrcRange.Ptr()}}
			}
			ref.Key, ref.KeyGiven = key, true
			ref.Range = hcl.RangeBetween(ref.Range, idx.SrcRange)
			remain = remain[1:]
		}
	}
	ref.Remaining = remain
	return ref, nil
}

func parseSingleAttrRef(trav hcl.Traversal) (string, hcl.Range, hcl.Traversal, hcl.Diagnostics) {
	root := trav.RootName()
	rootRange := trav[0].SourceRange()
	if len(trav) < 2 {
		return "", hcl.Range{}, nil, invalidRef(rootRange, fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root))
	}
	if attr, ok := trav[1].(hcl.TraverseAttr); ok {
		return attr.Name, hcl.RangeBetween(rootRange, attr.SrcRange), trav[2:], nil
	}
	return "", hcl.Range{}, nil, invalidRef(trav[1].SourceRange(), fmt.Sprintf("The %q object does not support this operation.", root))
}
