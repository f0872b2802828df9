package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/version"
)

func TestAllowsVersion(t *testing.T) {
	v := [3]uint64{1, 10, 6}
	tests := []struct {
		constraint string
		want       bool
	}{
		{"1.10.6", true},
		{"= 1.10", false}, // unwritten segments are zero: 1.10.0
		{"!= 1.10.6", false},
		{">= 1.10, < 1.11", true},
		{"> 1.10.6", false},
		{"<= 1.10.6", true},
		{"~> 1.10.0", true},
		{"~> 1.9.0", false},
		{"~> 1.9", true},
		{"~> 2.0", false},
		{"~> 1", true},
		{"~> 0", true}, // one segment written: any later version
		{"v1.10.6", true},
	}
	for _, tt := range tests {
		if !validVersionConstraint(tt.constraint) {
			t.Fatalf("%q: not a valid constraint", tt.constraint)
		}
		if got := allowsVersion(parseConstraintParts(tt.constraint), v); got != tt.want {
			t.Errorf("%q allows 1.10.6 = %v, want %v", tt.constraint, got, tt.want)
		}
	}
}

func TestCheckCoreVersion(t *testing.T) {
	root, ds := LoadTreeFS(mapFS(map[string]string{
		"main.tf": "terraform {\n  required_version = \">= 1.0\"\n}\n" +
			"terraform {\n  required_version = \"< 1.0\"\n}\n" +
			"module \"child\" {\n  source = \"./child\"\n}\n",
		"child/main.tf":   "terraform {\n  required_version = \">= 99\"\n}\n",
		"child/b.tf":      "terraform {\n  required_version = \">= 1.10.6-beta1\"\n}\n",
		"child/c.tf.json": `{"terraform": {"required_version": "~> 1.10.0"}}`,
		"ok/main.tf":      "terraform {\n  required_version = \"~> 1.10\"\n}\n",
	}), TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	got := formatDiags(root.CheckCoreVersion())
	want := "error main.tf:5: Unsupported OpenTofu Core version\n" +
		"error child/b.tf:2: Invalid required_version constraint\n" +
		"error child/main.tf:2: Unsupported OpenTofu Core version\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if d := root.CheckCoreVersion()[2]; !strings.HasPrefix(d.Detail, "Module module.child (from ./child) does not support OpenTofu version "+version.Terraform) {
		t.Errorf("child detail = %q", d.Detail)
	}
}

func TestCheckCoreVersionOverride(t *testing.T) {
	m, ds := LoadFiles(map[string][]byte{
		"main.tf":     []byte("terraform {\n  required_version = \"< 1.0\"\n}\n"),
		"override.tf": []byte("terraform {\n  required_version = \">= 1.0\"\n}\n"),
	})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := m.CheckCoreVersion(); len(got) != 0 {
		t.Errorf("the override's constraint should replace the base's: %s", formatDiags(got))
	}
}

func TestOverrideInChildModule(t *testing.T) {
	root, ds := LoadTreeFS(mapFS(map[string]string{
		"main.tf":                 `module "child" { source = "./child" }`,
		"child/main.tf":           `resource "terraform_data" "a" { input = "base" }`,
		"child/override.tf":       `resource "terraform_data" "a" { input = "over" }`,
		"child/extra_override.tf": `resource "terraform_data" "missing" {}`,
	}), TreeOptions{})
	if got, want := formatDiags(ds), "error child/extra_override.tf:1: Missing resource to override\n"; got != want {
		t.Errorf("diagnostics = %q, want %q", got, want)
	}
	attrs, _ := root.Children["child"].ManagedResources[resA].Config.JustAttributes()
	if got := exprValue(attrs["input"].Expr); got != "over" {
		t.Errorf("child input = %s, want over", got)
	}
}

// OpenTofu's own compatibility declarations, a language block's
// compatible_with (OpenTofu 1.12) and required_version in a .tofu file,
// are checked against the OpenTofu language rig implements, with
// OpenTofu 1.12's "Incompatible module"; a .tf file's required_version
// still against the version rig stands in for.
func TestCheckOpenTofuCompatibility(t *testing.T) {
	m, ds := LoadFiles(map[string][]byte{
		"lang.tf":       []byte("language {\n  compatible_with {\n    opentofu = \">= 1.12.0, < 2.0.0\"\n  }\n}\n"),
		"old.tf":        []byte("language {\n  compatible_with {\n    opentofu = \"< 1.12.0\"\n  }\n}\n"),
		"versions.tofu": []byte("terraform {\n  required_version = \">= 1.11\"\n}\n"),
		"pinned.tofu":   []byte("terraform {\n  required_version = \"< 1.11\"\n}\n"),
		"main.tf":       []byte("terraform {\n  required_version = \"~> 1.10.0\"\n}\n"),
	})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	got := formatDiags(m.CheckCoreVersion())
	want := "error pinned.tofu:2: Incompatible module\nerror old.tf:3: Incompatible module\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
