package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/addrs"
)

func loadScenario(t *testing.T, name string) *Module {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/load/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		if f.Name != "want" {
			files[f.Name] = f.Data
		}
	}
	m, _ := LoadFiles(files)
	return m
}

func managed(typ, name string) addrs.Resource {
	return addrs.Resource{Mode: addrs.Managed, Type: typ, Name: name}
}

// travString renders a relative traversal as written: a.b["k"][0].
func travString(tr hcl.Traversal) string {
	s := ""
	for _, step := range tr {
		switch st := step.(type) {
		case hcl.TraverseRoot:
			s += st.Name
		case hcl.TraverseAttr:
			if s == "" {
				s += st.Name
			} else {
				s += "." + st.Name
			}
		case hcl.TraverseIndex:
			if st.Key.Type() == cty.String {
				s += `["` + st.Key.AsString() + `"]`
			} else {
				s += "[" + st.Key.AsBigFloat().String() + "]"
			}
		}
	}
	return s
}

func TestValidModuleContents(t *testing.T) {
	m := loadScenario(t, "valid")

	t.Run("terraform block", func(t *testing.T) {
		tf := m.Terraform
		if len(tf.RequiredVersion) != 1 {
			t.Errorf("RequiredVersion = %d expressions, want 1", len(tf.RequiredVersion))
		}
		if tf.Backend == nil || tf.Backend.Type != "local" {
			t.Fatalf("Backend = %+v, want local", tf.Backend)
		}
		null := tf.RequiredProviders["null"]
		if null == nil || null.Version != "~> 3.2" || null.Provider != addrs.NewDefaultProvider("null") {
			t.Errorf("required null = %+v", null)
		}
		my := tf.RequiredProviders["mycloud"]
		want := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "mycloud"}
		if my == nil || my.Provider != want || !cmp.Equal(my.ConfigurationAliases, []string{"mycloud.west"}) {
			t.Errorf("required mycloud = %+v", my)
		}
	})

	t.Run("providers", func(t *testing.T) {
		if _, ok := m.ProviderConfigs["null"]; !ok {
			t.Error(`no "null" provider configuration`)
		}
		east := m.ProviderConfigs["mycloud.east"]
		if east == nil || east.Alias != "east" || east.AliasRange == nil {
			t.Fatalf("mycloud.east = %+v", east)
		}
		attrs, _ := east.Config.JustAttributes()
		if _, ok := attrs["region"]; !ok || len(attrs) != 1 {
			t.Errorf("provider config attributes = %v, want only region", attrs)
		}
	})

	t.Run("variables", func(t *testing.T) {
		names := m.Variables["names"]
		if !names.Type.Equals(cty.List(cty.String)) {
			t.Errorf("names type = %#v", names.Type)
		}
		if !names.Default.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})) {
			t.Errorf("names default = %#v", names.Default)
		}
		s := m.Variables["settings"]
		if !s.Sensitive || !s.Nullable || s.TypeDefaults == nil || len(s.Validations) != 1 || s.Description != "Settings." {
			t.Errorf("settings = %+v", s)
		}
		wantDefault := cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(3), "tags": cty.MapValEmpty(cty.String)})
		if !s.Default.RawEquals(wantDefault) {
			t.Errorf("settings default = %#v, want %#v", s.Default, wantDefault)
		}
		if !s.ConcreteType.Equals(cty.Object(map[string]cty.Type{"size": cty.Number, "tags": cty.Map(cty.String)})) {
			t.Errorf("settings concrete type = %#v", s.ConcreteType)
		}
	})

	t.Run("counted resource", func(t *testing.T) {
		r := m.ManagedResources[managed("terraform_data", "counted")]
		if r == nil || r.Count == nil || r.ForEach != nil || r.Managed == nil {
			t.Fatalf("counted = %+v", r)
		}
		if r.DeclRange.Start.Line != 31 || r.DeclRange.Filename != "main.tf" {
			t.Errorf("DeclRange = %v", r.DeclRange)
		}
		attrs, _ := r.Config.JustAttributes()
		if _, ok := attrs["count"]; ok {
			t.Error("Config still holds the count meta-argument")
		}
	})

	t.Run("lifecycle", func(t *testing.T) {
		r := m.ManagedResources[managed("terraform_data", "each")]
		lc := r.Managed
		if !lc.CreateBeforeDestroy || !lc.CreateBeforeDestroySet || lc.PreventDestroy == nil || lc.DestroySet {
			t.Errorf("lifecycle flags = %+v", lc)
		}
		if lc.CreateBeforeDestroyRange.Start.Line != 48 {
			t.Errorf("CreateBeforeDestroyRange = %v, want line 48", lc.CreateBeforeDestroyRange)
		}
		var ignored []string
		for _, tr := range lc.IgnoreChanges {
			ignored = append(ignored, travString(tr))
		}
		if diff := cmp.Diff([]string{"input", `triggers_replace["k"]`, "nested.attr[0]"}, ignored); diff != "" {
			t.Errorf("IgnoreChanges (-want +got):\n%s", diff)
		}
		if len(lc.ReplaceTriggeredBy) != 2 || len(r.Preconditions) != 1 || len(r.Postconditions) != 1 {
			t.Errorf("replace_triggered_by %d, preconditions %d, postconditions %d", len(lc.ReplaceTriggeredBy), len(r.Preconditions), len(r.Postconditions))
		}
		if len(r.DependsOn) != 1 || travString(r.DependsOn[0]) != "terraform_data.counted" {
			t.Errorf("DependsOn = %v", r.DependsOn)
		}
		if len(r.Provisioners) != 1 || r.Provisioners[0].When != ProvisionerWhenDestroy || r.Provisioners[0].OnFailure != ProvisionerOnFailureContinue || r.Connection == nil {
			t.Errorf("provisioners %+v connection %+v", r.Provisioners, r.Connection)
		}
		// The dynamic block stays in Config for lang.Scope.EvalBlock to expand.
		if syn, ok := r.Config.(*hclsyntax.Body); !ok || len(syn.Blocks) == 0 {
			t.Errorf("Config lost its dynamic block: %T", r.Config)
		}
	})

	t.Run("provider of each resource", func(t *testing.T) {
		tests := []struct {
			addr      addrs.Resource
			wantName  string
			wantAlias string
			want      addrs.Provider
		}{
			{managed("terraform_data", "counted"), "terraform", "", addrs.NewBuiltInProvider("terraform")},
			{managed("mycloud_thing", "t"), "mycloud", "east", addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "mycloud"}},
			{addrs.Resource{Mode: addrs.Data, Type: "null_data_source", Name: "d"}, "null", "", addrs.NewDefaultProvider("null")},
		}
		for _, tt := range tests {
			r := m.ResourceByAddr(tt.addr)
			name, alias := m.ProviderLocalName(r)
			if name != tt.wantName || alias != tt.wantAlias {
				t.Errorf("%s: local name %q alias %q, want %q %q", tt.addr, name, alias, tt.wantName, tt.wantAlias)
			}
			if got := m.ProviderFor(name); got != tt.want {
				t.Errorf("%s: provider %s, want %s", tt.addr, got, tt.want)
			}
		}
		if got := m.ProviderFor("aws"); got != addrs.NewDefaultProvider("aws") {
			t.Errorf("ProviderFor(aws) = %s", got)
		}
	})

	t.Run("other blocks", func(t *testing.T) {
		if mc := m.ModuleCalls["child"]; mc == nil || mc.Source != "./child" || mc.Count == nil {
			t.Errorf("module child = %+v", mc)
		}
		if len(m.Moved) != 1 || len(m.Imports) != 1 || len(m.Removed) != 1 || len(m.Checks) != 1 {
			t.Errorf("moved %d import %d removed %d check %d", len(m.Moved), len(m.Imports), len(m.Removed), len(m.Checks))
		}
		if o := m.Outputs["prefix"]; o == nil || o.Expr == nil || len(o.DependsOn) != 1 || o.Description != "The prefix." {
			t.Errorf("output prefix = %+v", o)
		}
		if l := m.Locals["prefix"]; l == nil || l.DeclRange.Start.Line != 28 {
			t.Errorf("local prefix = %+v", l)
		}
		if got := len(m.Resources()); got != 4 {
			t.Errorf("Resources() = %d, want 4", got)
		}
	})
}

func TestJSONModuleContents(t *testing.T) {
	m := loadScenario(t, "json")
	r := m.ManagedResources[managed("terraform_data", "a")]
	if r == nil || r.Count == nil {
		t.Fatalf("a = %+v", r)
	}
	lc := r.Managed
	if !lc.CreateBeforeDestroy || len(lc.IgnoreChanges) != 1 || travString(lc.IgnoreChanges[0]) != "input" {
		t.Errorf("lifecycle = %+v", lc)
	}
	if len(lc.ReplaceTriggeredBy) != 1 {
		t.Fatalf("replace_triggered_by = %v", lc.ReplaceTriggeredBy)
	}
	vars := lc.ReplaceTriggeredBy[0].Variables()
	if len(vars) != 1 || travString(vars[0]) != "terraform_data.b" {
		t.Errorf("replace_triggered_by references %v", vars)
	}
	if v := m.Variables["v"]; v == nil || !v.Type.Equals(cty.String) || !v.Default.RawEquals(cty.StringVal("x")) {
		t.Errorf("variable v = %+v", v)
	}
}

func TestProviderRefForms(t *testing.T) {
	m := loadScenario(t, "provider_ref")
	tests := map[string]string{"quoted": "terraform.west", "ok": "terraform.west"}
	for name, want := range tests {
		r := m.ManagedResources[managed("terraform_data", name)]
		if r == nil || r.ProviderConfigRef == nil || r.ProviderConfigRef.String() != want {
			t.Errorf("%s: provider ref = %+v, want %s", name, r.ProviderConfigRef, want)
		}
	}
}

func TestEnumStrings(t *testing.T) {
	if ProvisionerWhenCreate.String() != "create" || ProvisionerWhenDestroy.String() != "destroy" ||
		ProvisionerOnFailureFail.String() != "fail" || ProvisionerOnFailureContinue.String() != "continue" {
		t.Error("enum strings do not match configuration keywords")
	}
}

func TestProviderMetaBlocks(t *testing.T) {
	m := loadScenario(t, "provider_meta")
	pm := m.Terraform.ProviderMetas["test"]
	if pm == nil || pm.Provider != "test" || pm.DeclRange.Filename != "main.tf" {
		t.Fatalf("provider_meta \"test\" = %+v, want the block of main.tf", pm)
	}
	attrs, _ := pm.Config.JustAttributes()
	if v, _ := attrs["module_name"].Expr.Value(nil); !v.RawEquals(cty.StringVal("web")) {
		t.Errorf("module_name = %#v", v)
	}
	if _, ok := m.Terraform.ProviderMetas["other"]; ok {
		t.Error("a provider_meta block with a non-constant argument was kept")
	}
}
