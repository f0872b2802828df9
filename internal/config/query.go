package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// List is a list block of a query file (*.tfquery.hcl, Terraform 1.14):
// it asks a provider which objects of a list resource type exist.
//
//	list "aws_instance" "web" {
//	  provider         = aws
//	  count            = 2      # or for_each: one query per instance
//	  include_resource = true   # the objects' attributes too, not only their identities
//	  limit            = 50     # at most this many (100 by default)
//	  config { … }              # the list resource type's filter arguments
//	}
type List struct {
	Type, Name string
	// Count and ForEach repeat the block (at most one is set); nil when
	// not set.
	Count, ForEach hcl.Expression
	// Provider is the provider configuration to list with; a list block
	// must name one.
	Provider *ProviderConfigRef
	// IncludeResource and Limit are nil when not set.
	IncludeResource hcl.Expression
	Limit           hcl.Expression
	// Config is the config block's body; nil without one.
	Config hcl.Body
	// TypeRange covers the type label; DeclRange the block header.
	TypeRange, DeclRange hcl.Range
}

// Addr is the list block's address, list.TYPE.NAME, as references name it.
func (l *List) Addr() addrs.Resource {
	return addrs.Resource{Mode: addrs.List, Type: l.Type, Name: l.Name}
}

// Address is the list block's address, list.TYPE.NAME.
func (l *List) Address() string { return l.Addr().String() }

// SortedLists returns the module's list blocks in file order: by file
// name, then position.
func (m *Module) SortedLists() []*List {
	out := make([]*List, 0, len(m.ListResources))
	for _, l := range m.ListResources {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b *List) int {
		if c := strings.Compare(a.DeclRange.Filename, b.DeclRange.Filename); c != 0 {
			return c
		}
		return a.DeclRange.Start.Byte - b.DeclRange.Start.Byte
	})
	return out
}

var queryFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "list", LabelNames: []string{"type", "name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
	},
}

var listBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "include_resource"}, {Name: "limit"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "config"}},
}

// isQueryFile reports whether name is a query file: *.tfquery.hcl or
// *.tfquery.json, not hidden.
func isQueryFile(name string) bool {
	return !isIgnoredFile(name) && (strings.HasSuffix(name, ".tfquery.hcl") || strings.HasSuffix(name, ".tfquery.json"))
}

// addQueryFiles loads the query files of dir into m, in file name order,
// as Terraform does for its query and validate -query commands: their
// list blocks become m.ListResources, and their provider, variable and
// locals blocks join the module's own (a name declared twice is an
// error, as between configuration files).
func (m *Module) addQueryFiles(r files, dir string) diag.Diagnostics {
	entries, err := r.ReadDir(dir)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read directory", "Could not read the query files of %s: %s.", dir, err)}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && isQueryFile(e.Name()) {
			names = append(names, r.Join(dir, e.Name()))
		}
	}
	slices.Sort(names)
	var ds diag.Diagnostics
	for _, name := range names {
		src, err := r.ReadFile(name)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read file", "The query file %s could not be read: %s.", name, err))
			continue
		}
		m.Sources[name] = src
		body, hds := parseFile(name, src)
		ds = ds.Append(diag.FromHCL(hds))
		if body == nil || hds.HasErrors() {
			continue
		}
		ds = ds.Append(diag.FromHCL(m.addQueryFile(body)))
	}
	return ds
}

// addQueryFile adds the blocks of one query file to m.
func (m *Module) addQueryFile(body hcl.Body) hcl.Diagnostics {
	content, diags := body.Content(queryFileSchema)
	inFile := map[addrs.Resource]bool{}
	for _, block := range content.Blocks {
		switch block.Type {
		case "list":
			l, more := decodeListBlock(block)
			diags = append(diags, more...)
			if l == nil {
				continue
			}
			if prev, dup := m.ListResources[l.Addr()]; dup {
				if inFile[l.Addr()] {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Duplicate "list" block names`,
						Detail:  fmt.Sprintf("This query file already has a list block named %s.%s defined at %s.", l.Type, l.Name, prev.DeclRange),
						Subject: l.DeclRange.Ptr()})
				} else {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Duplicate list %q configuration", l.Type),
						Detail:  fmt.Sprintf("A %s list named %q was already declared at %s. List names must be unique per type in each module.", l.Type, l.Name, prev.DeclRange),
						Subject: l.DeclRange.Ptr()})
				}
				continue
			}
			inFile[l.Addr()] = true
			m.ListResources[l.Addr()] = l
		case "provider":
			p, more := decodeProviderBlock(block)
			diags = append(diags, more...)
			if p != nil {
				diags = append(diags, m.addProvider(p)...)
			}
		case "variable":
			v, more := decodeVariableBlock(block)
			diags = append(diags, more...)
			diags = append(diags, m.addVariable(v)...)
		case "locals":
			locals, more := decodeLocalsBlock(block)
			diags = append(diags, more...)
			diags = append(diags, m.addLocals(locals)...)
		}
	}
	return diags
}

// decodeListBlock decodes a list block; nil when it is unusable.
func decodeListBlock(block *hcl.Block) (*List, hcl.Diagnostics) {
	l := &List{Type: block.Labels[0], Name: block.Labels[1], TypeRange: block.LabelRanges[0], DeclRange: block.DefRange}
	var diags hcl.Diagnostics
	if !hclsyntax.ValidIdentifier(l.Name) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid list block name",
			Detail:  "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
			Subject: block.DefRange.Ptr()})
	}
	bc, more := block.Body.Content(listBlockSchema)
	diags = append(diags, more...)
	if more.HasErrors() {
		return nil, diags
	}
	a, ok := bc.Attributes["provider"]
	if !ok {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Missing "provider" attribute`,
			Detail: "You must specify a provider attribute when defining a list block.", Subject: block.DefRange.Ptr()})
	}
	ref, more := decodeProviderConfigRef(a.Expr, "provider")
	diags = append(diags, more...)
	if ref == nil {
		return nil, diags
	}
	l.Provider = ref
	if a, ok := bc.Attributes["count"]; ok {
		l.Count = a.Expr
	}
	if a, ok := bc.Attributes["for_each"]; ok {
		l.ForEach = a.Expr
		if l.Count != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid combination of "count" and "for_each"`,
				Detail: `The "count" and "for_each" meta-arguments are mutually-exclusive.`, Subject: a.NameRange.Ptr()})
			return nil, diags
		}
	}
	if a, ok := bc.Attributes["include_resource"]; ok {
		l.IncludeResource = a.Expr
	}
	if a, ok := bc.Attributes["limit"]; ok {
		l.Limit = a.Expr
	}
	for _, cb := range bc.Blocks {
		if l.Config != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate config block",
				Detail: "A list block must contain only one nested \"config\" block.", Subject: cb.DefRange.Ptr()})
			continue
		}
		l.Config = cb.Body
	}
	return l, diags
}
