package ui

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

var (
	builtinProvider = addrs.NewBuiltInProvider("terraform")
	testProvider    = addrs.NewDefaultProvider("test")
	builtinConfig   = addrs.AbsProviderConfig{Provider: builtinProvider}
	testConfig      = addrs.AbsProviderConfig{Provider: testProvider}
)

// dataSchema is terraform_data's schema.
func dataSchema() provider.Schema {
	return provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}}
}

// instanceSchema is a test_instance: typed attributes, a sensitive one, and
// a nested block, as real providers have.
func instanceSchema() provider.Schema {
	return provider.Schema{Version: 1, Block: &provider.Block{
		Attributes: map[string]*provider.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"ami":      {Type: cty.String, Required: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true},
			"ports":    {Type: cty.List(cty.Number), Optional: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"policy":   {Type: cty.String, Optional: true},
		},
		BlockTypes: map[string]*provider.NestedBlock{
			"disk": {Nesting: provider.NestingList, Block: provider.Block{Attributes: map[string]*provider.Attribute{
				"size": {Type: cty.Number, Required: true},
			}}},
		},
	}}
}

func testSchemas() ProviderSchemas {
	return ProviderSchemas{
		builtinProvider: {ResourceTypes: map[string]provider.Schema{"terraform_data": dataSchema()}},
		testProvider:    {ResourceTypes: map[string]provider.Schema{"test_instance": instanceSchema()}},
	}
}

func managed(typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.Managed, Type: typ, Name: name}.Absolute(addrs.RootModule).Instance(key)
}

func dataType() cty.Type { return dataSchema().Block.ImpliedType() }

// dataVal builds a terraform_data object; unset attributes are null.
func dataVal(attrs map[string]cty.Value) cty.Value {
	m := map[string]cty.Value{}
	for name, ty := range dataType().AttributeTypes() {
		m[name] = cty.NullVal(ty)
		if v, ok := attrs[name]; ok {
			m[name] = v
		}
	}
	return cty.ObjectVal(m)
}

func instanceVal(attrs map[string]cty.Value) cty.Value {
	m := map[string]cty.Value{}
	for name, ty := range instanceSchema().Block.ImpliedType().AttributeTypes() {
		m[name] = cty.NullVal(ty)
		if v, ok := attrs[name]; ok {
			m[name] = v
		}
	}
	return cty.ObjectVal(m)
}
