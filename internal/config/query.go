package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/diag"
)

// List is a list block of a query file (*.tfquery.hcl, Terraform 1.14):
// it asks a provider which objects of a list resource type exist.
//
//	list "aws_instance" "web" {
//	  provider         = aws
//	  include_resource = true   # the objects' attributes too, not only their identities
//	  limit            = 50     # at most this many (100 by default)
//	  config { … }              # the list resource type's filter arguments
//	}
type List struct {
	Type, Name string
	// Provider is the provider configuration to list with; a list block
	// must name one.
	Provider *ProviderConfigRef
	// IncludeResource and Limit are nil when not set.
	IncludeResource hcl.Expression
	Limit           hcl.Expression
	// Config is the config block's body; nil without one.
	Config    hcl.Body
	DeclRange hcl.Range
}

// Address is the list block's address, list.TYPE.NAME.
func (l *List) Address() string { return "list." + l.Type + "." + l.Name }

var queryFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "list", LabelNames: []string{"type", "name"}}},
}

var listBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "provider"}, {Name: "include_resource"}, {Name: "limit"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "config"}},
}

// LoadQueryFiles loads the list blocks of the query files of dir (names
// ending in ".tfquery.hcl"), in file name order, then file order.
func LoadQueryFiles(dir string) ([]*List, diag.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Failed to read directory", "Could not read the query files of %s: %s.", dir, err)}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".tfquery.hcl") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var lists []*List
	var ds diag.Diagnostics
	seen := map[string]hcl.Range{}
	for _, name := range names {
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read file", "The query file %s could not be read: %s.", path, err))
			continue
		}
		f, hds := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		ds = ds.Append(diag.FromHCL(hds))
		if hds.HasErrors() {
			continue
		}
		ls, more := decodeQueryFile(f.Body)
		ds = ds.Append(more)
		for _, l := range ls {
			if prev, dup := seen[l.Address()]; dup {
				ds = ds.Append(diag.At(l.DeclRange, "Duplicate \"list\" block names",
					fmt.Sprintf("A list block named %s.%s was already declared at %s.", l.Type, l.Name, prev)))
				continue
			}
			seen[l.Address()] = l.DeclRange
			lists = append(lists, l)
		}
	}
	return lists, ds
}

func decodeQueryFile(body hcl.Body) ([]*List, diag.Diagnostics) {
	content, hds := body.Content(queryFileSchema)
	ds := diag.FromHCL(hds)
	var lists []*List
	for _, block := range content.Blocks {
		l := &List{Type: block.Labels[0], Name: block.Labels[1], DeclRange: block.DefRange}
		if !hclsyntax.ValidIdentifier(l.Name) {
			ds = ds.Append(diag.At(block.LabelRanges[1], "Invalid list block name",
				"A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."))
			continue
		}
		bc, hds := block.Body.Content(listBlockSchema)
		ds = ds.Append(diag.FromHCL(hds))
		if hds.HasErrors() {
			continue
		}
		if a, ok := bc.Attributes["provider"]; ok {
			ref, hds := decodeProviderConfigRef(a.Expr, "provider")
			ds = ds.Append(diag.FromHCL(hds))
			l.Provider = ref
		} else {
			ds = ds.Append(diag.At(block.DefRange, "Missing \"provider\" attribute", "You must specify a provider attribute when defining a list block."))
			continue
		}
		if a, ok := bc.Attributes["include_resource"]; ok {
			l.IncludeResource = a.Expr
		}
		if a, ok := bc.Attributes["limit"]; ok {
			l.Limit = a.Expr
		}
		for _, cb := range bc.Blocks {
			if l.Config != nil {
				ds = ds.Append(diag.At(cb.DefRange, "Duplicate config block", "A list block must contain only one nested \"config\" block."))
				continue
			}
			l.Config = cb.Body
		}
		if l.Provider != nil {
			lists = append(lists, l)
		}
	}
	return lists, ds
}
