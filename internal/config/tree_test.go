package config

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rig-iac/rig/internal/addrs"
)

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
	}
	return fsys
}

func TestLoadTree(t *testing.T) {
	root, ds := LoadTreeFS(mapFS(map[string]string{
		"main.tf":                `module "net" { source = "./modules/net" }`,
		"modules/net/main.tf":    `module "sub" { source = "../sub" }`,
		"modules/sub/main.tf":    `resource "terraform_data" "x" {}`,
		"modules/unused/main.tf": `resource "terraform_data" "y" {}`,
	}), TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	sub := root.Descendant(addrs.RootModuleStatic.Child("net").Child("sub"))
	if sub == nil || sub.SourceDir != "modules/sub" || sub.Parent != root.Children["net"] {
		t.Fatalf("module.net.module.sub not loaded from modules/sub: %+v", sub)
	}
	if r := root.ConfigResource(addrs.ConfigResource{Module: sub.Path, Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "x"}}); r == nil {
		t.Error("ConfigResource does not find module.net.module.sub.terraform_data.x")
	}
	var paths []string
	for _, m := range root.AllModules() {
		paths = append(paths, string(m.Path))
	}
	if got := strings.Join(paths, " "); got != " module.net module.net.module.sub" {
		t.Errorf("AllModules = %q", got)
	}
	if _, ok := root.Sources["modules/sub/main.tf"]; !ok {
		t.Error("the root's Sources lack a child module's file (diagnostic snippets need it)")
	}
}

// TestLoadTreeBackslashSources: local sources written with backslashes
// (".\\modules\\net", as Windows users write them) are the same paths on
// every system, loaded in place.
func TestLoadTreeBackslashSources(t *testing.T) {
	root, ds := LoadTreeFS(mapFS(map[string]string{
		"main.tf":             `module "net" { source = ".\\modules\\net" }`,
		"modules/net/main.tf": `module "sub" { source = "..\\sub" }`,
		"modules/sub/main.tf": `resource "terraform_data" "x" {}`,
	}), TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	sub := root.Descendant(addrs.RootModuleStatic.Child("net").Child("sub"))
	if sub == nil || sub.SourceDir != "modules/sub" {
		t.Fatalf("module.net.module.sub not loaded from modules/sub: %+v", sub)
	}
}

func TestLoadTreeErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // summary, then where
	}{
		{"version on a local source", map[string]string{
			"main.tf":   "module \"m\" {\n  source  = \"./m\"\n  version = \"1.0\"\n}",
			"m/main.tf": ""},
			"Invalid registry module source address main.tf:2"},
		{"missing directory", map[string]string{
			"main.tf": "module \"m\" {\n  source = \"./nowhere\"\n}"},
			"Unreadable module directory main.tf:2"},
		{"a remote module not installed", map[string]string{
			"main.tf": "module \"m\" {\n  source = \"git::https://example.com/m.git\"\n}"},
			"Module not installed main.tf:1"},
		{"a module calling itself", map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n}",
			"m/main.tf": "module \"again\" {\n  source = \"../m\"\n}"},
			"Module calls nested too deeply m/main.tf:1"},
		{"count on a module with its own provider block", map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n  count  = 2\n}",
			"m/main.tf": "provider \"aws\" {\n  region = \"x\"\n}"},
			"Module is incompatible with count, for_each, enabled and depends_on main.tf:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := LoadTreeFS(mapFS(tt.files), TreeOptions{})
			var got []string
			for _, d := range ds {
				where := ""
				if d.Subject != nil {
					where = d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line)
				}
				got = append(got, d.Summary+" "+where)
			}
			if !ds.HasErrors() || !slices.Contains(got, tt.want) {
				t.Errorf("diagnostics %q, want %q", got, tt.want)
			}
		})
	}
}
