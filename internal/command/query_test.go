package command

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const queryFile = `
list "test_file" "greetings" {
  provider = test
  limit    = var.max
  config {
    content_prefix = "hello"
  }
}
list "test_file" "none" {
  provider = test
  config {
    id = "no-such-file"
  }
}
`

// rig query lists what exists, as Terraform 1.14 prints it; -json
// streams it; -generate-config-out writes resource and import blocks
// that a plan imports, after which the plan has no changes.
func TestQuery(t *testing.T) {
	world := pluginWorld(t)
	for name, content := range map[string]string{"a1": "hello one", "b2": "hello two", "c3": "hello three", "d4": "goodbye"} {
		writeFile(t, world, name, content)
	}
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
variable "max" {
  type    = number
  default = 2
}
`, "search.tfquery.hcl": queryFile})

	r := mustRig(t, dir, "query", "-no-color")
	want := "list.test_file.greetings   id=a1   file a1\nlist.test_file.greetings   id=b2   file b2\n\n" +
		"Warning: list block(s) [list.test_file.none] returned 0 results.\n"
	if !strings.HasPrefix(r.stdout, want) {
		t.Errorf("query output:\n%s\nwant:\n%s", r.stdout, want)
	}
	r = mustRig(t, dir, "query", "-no-color", "-var", "max=10")
	if !strings.Contains(r.stdout, "id=c3   file c3") || strings.Contains(r.stdout, "d4") {
		t.Errorf("query with limit 10:\n%s", r.stdout)
	}

	r = mustRig(t, dir, "query", "-json")
	var types []string
	var found []map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if typ, _ := msg["type"].(string); typ != "diagnostic" { // the dev_overrides warning
			types = append(types, typ)
		}
		if f, ok := msg["list_resource_found"].(map[string]any); ok {
			found = append(found, f)
		}
	}
	if got := strings.Join(types, " "); got != "version list_start list_resource_found list_resource_found list_complete list_start list_complete" {
		t.Errorf("message types: %s\n%s", got, r.stdout)
	}
	if len(found) != 2 || found[0]["display_name"] != "file a1" || found[0]["identity"].(map[string]any)["id"] != "a1" || found[0]["identity_version"] != float64(1) {
		t.Errorf("found: %v", found)
	}

	r = mustRig(t, dir, "query", "-no-color", "-generate-config-out=found.tf")
	gen, err := os.ReadFile(filepath.Join(dir, "found.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"resource \"test_file\" \"greetings_0\" {\n  provider = test\n  content  = \"hello one\"\n",
		"import {\n  to       = test_file.greetings_1\n  provider = test\n  identity = {\n    id = \"b2\"\n  }\n}\n",
	} {
		if !strings.Contains(string(gen), want) {
			t.Errorf("generated file lacks %q:\n%s", want, gen)
		}
	}
	r = mustRig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, "Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("plan of the generated configuration:\n%s", r.stdout)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after importing what the query found:\n%s", r.stdout)
	}
	if got := string(stateInstance(t, dir, "test_file", "greetings_1")["identity"]); got != `{"id":"b2"}` {
		t.Errorf("imported identity %s", got)
	}

	r = rig(t, dir, "query", "-no-color", "-generate-config-out=found.tf")
	if r.code == 0 || !strings.Contains(r.stderr, "Target generated file already exists") {
		t.Errorf("query into an existing file: exit %d\n%s", r.code, r.stderr)
	}
}

// Query files are checked: a list block needs a provider, a known list
// resource type, and a whole limit.
func TestQueryErrors(t *testing.T) {
	pluginWorld(t)
	for _, tc := range []struct{ name, file, want string }{
		{"no provider", `list "test_file" "a" {}`, `Missing "provider" attribute`},
		{"unknown type", `list "test_nope" "a" { provider = test }`, `does not support list resource "test_nope"`},
		{"bad limit", `list "test_file" "a" {
  provider = test
  limit    = 1.5
}`, "Invalid limit argument"},
		{"other block", `resource "test_file" "a" {}`, `Unsupported block type`},
		{"duplicate", `list "test_file" "a" { provider = test }
list "test_file" "a" { provider = test }`, `Duplicate "list" block names`},
		{"count and for_each", `list "test_file" "a" {
  provider = test
  count    = 1
  for_each = {}
}`, `Invalid combination of "count" and "for_each"`},
		{"undeclared list", `list "test_file" "a" {
  provider = test
  config {
    id = list.test_file.nope.data[0].identity.id
  }
}`, `A list resource "test_file" "nope" has not been declared in the root module.`},
		{"itself", `list "test_file" "a" {
  provider = test
  config {
    id = list.test_file.a.data[0].identity.id
  }
}`, `Configuration for list.test_file.a may not refer to itself.`},
		{"cycle", `locals {
  first = list.test_file.a.data[0].identity.id
}
list "test_file" "a" {
  provider = test
  config {
    id = list.test_file.b.data[0].identity.id
  }
}
list "test_file" "b" {
  provider = test
  config {
    id = local.first
  }
}`, "in a cycle: list.test_file.a"},
		{"count without index", `list "test_file" "a" {
  provider = test
  count    = 2
}
list "test_file" "b" {
  provider = test
  limit    = length(list.test_file.a.data)
}`, `Because list.test_file.a has "count" set`},
		{"variable declared twice", `variable "max" {}
list "test_file" "a" { provider = test }`, `A variable named "max" was already declared at main.tf:7,1-15.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": testFileProvider + "variable \"max\" {\n  default = 1\n}\n", "q.tfquery.hcl": tc.file})
			r := rig(t, dir, "query", "-no-color")
			if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want an error %q:\n%s%s", r.code, tc.want, r.stdout, r.stderr)
			}
		})
	}
	dir := workDir(t, map[string]string{"main.tf": testFileProvider})
	if r := rig(t, dir, "query", "-no-color"); r.code == 0 || !strings.Contains(r.stderr, "No resources to query") {
		t.Errorf("query without query files: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, t.TempDir(), "query", "-no-color"); r.code == 0 || !strings.Contains(r.stderr, "Query requires a query configuration to be present.") {
		t.Errorf("query in an empty directory: exit %d\n%s", r.code, r.stderr)
	}
}

// A query file declares its own variables, locals and provider
// configurations; list blocks repeat with count and for_each, and one
// list block's config may use another's results, which run first.
func TestQueryRepeatedAndChained(t *testing.T) {
	world := pluginWorld(t)
	for name, content := range map[string]string{"a1": "hello one", "b2": "hello two", "c3": "bye three"} {
		writeFile(t, world, name, content)
	}
	dir := workDir(t, map[string]string{"main.tf": testFileProvider, "search.tfquery.hcl": `
variable "prefixes" {
  type    = list(string)
  default = ["hello", "bye"]
}
locals {
  by_prefix = { for p in var.prefixes : p => p }
}
provider "test" {}

list "test_file" "by_prefix" {
  provider = test
  for_each = local.by_prefix
  config {
    content_prefix = each.value
  }
}
list "test_file" "first" {
  provider = test
  count    = 2
  config {
    id = list.test_file.all.data[count.index].identity.id
  }
}
list "test_file" "all" {
  provider = test
  limit    = length(list.test_file.by_prefix["hello"].data)
}
`})
	r := mustRig(t, dir, "query", "-no-color")
	want := `list.test_file.by_prefix["bye"]   id=c3   file c3

list.test_file.by_prefix["hello"]   id=a1   file a1
list.test_file.by_prefix["hello"]   id=b2   file b2

list.test_file.all   id=a1   file a1
list.test_file.all   id=b2   file b2

list.test_file.first[0]   id=a1   file a1

list.test_file.first[1]   id=b2   file b2

`
	// The warning about the test provider's dev_overrides comes after.
	got, _, _ := strings.Cut(r.stdout, "\nWarning: Provider development overrides are in effect")
	if got != want {
		t.Errorf("query output:\n%s\nwant:\n%s", r.stdout, want)
	}

	r = mustRig(t, dir, "query", "-no-color", "-var", `prefixes=["hello", "none"]`)
	if strings.Contains(r.stdout, "c3") || !strings.Contains(r.stdout, `list.test_file.by_prefix["hello"]   id=b2   file b2`) ||
		!strings.Contains(r.stdout, `Warning: list block(s) [list.test_file.by_prefix["none"]] returned 0 results.`) {
		t.Errorf("query with -var:\n%s", r.stdout)
	}

	r = mustRig(t, dir, "query", "-json")
	var addrs []string
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var msg map[string]map[string]any
		_ = json.Unmarshal(sc.Bytes(), &msg)
		for _, typ := range []string{"list_start", "list_resource_found", "list_complete"} {
			if m, ok := msg[typ]; ok {
				addrs = append(addrs, strings.TrimPrefix(typ, "list_")+" "+strings.TrimPrefix(m["address"].(string), "list.test_file."))
			}
		}
	}
	wantAddrs := `start by_prefix["bye"], resource_found by_prefix["bye"], complete by_prefix["bye"], ` +
		`start by_prefix["hello"], resource_found by_prefix["hello"], resource_found by_prefix["hello"], complete by_prefix["hello"], ` +
		`start all, resource_found all, resource_found all, complete all, ` +
		`start first[0], resource_found first[0], complete first[0], start first[1], resource_found first[1], complete first[1]`
	if got := strings.Join(addrs, ", "); got != wantAddrs {
		t.Errorf("-json addresses:\n%s\nwant:\n%s", got, wantAddrs)
	}
}

// Generated configuration names the objects of a repeated list block
// NAME_I_J (I the instance's position, J the object's), as Terraform
// does; the plan of the generated file imports them and the next plan
// has no changes.
func TestQueryRepeatedGenerateConfig(t *testing.T) {
	world := pluginWorld(t)
	for name, content := range map[string]string{"a1": "hello one", "b2": "hello two", "c3": "bye three"} {
		writeFile(t, world, name, content)
	}
	dir := workDir(t, map[string]string{"main.tf": testFileProvider, "search.tfquery.hcl": `
list "test_file" "found" {
  provider = test
  for_each = toset(["hello", "bye"])
  config {
    content_prefix = each.key
  }
}
`})
	mustRig(t, dir, "query", "-no-color", "-generate-config-out=found.tf")
	gen, err := os.ReadFile(filepath.Join(dir, "found.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# __generated__ by rig from list.test_file.found[\"bye\"]\nresource \"test_file\" \"found_0_0\" {\n  provider = test\n  content  = \"bye three\"\n",
		"resource \"test_file\" \"found_1_1\" {\n  provider = test\n  content  = \"hello two\"\n",
		"import {\n  to       = test_file.found_1_0\n  provider = test\n  identity = {\n    id = \"a1\"\n  }\n}\n",
	} {
		if !strings.Contains(string(gen), want) {
			t.Errorf("generated file lacks %q:\n%s", want, gen)
		}
	}
	r := mustRig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("plan of the generated configuration:\n%s", r.stdout)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after importing what the query found:\n%s", r.stdout)
	}
}

// validate -query checks the query files as Terraform does (list resource
// types, config arguments, the provider's own ValidateListResourceConfig);
// plain validate leaves them alone, and query has the provider check each
// config before listing.
func TestValidateQuery(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider, "q.tfquery.hcl": `variable "id" {
  type = string
}
list "test_nope" "a" {
  provider = test
}
list "test_file" "b" {
  provider = test
  config {
    nope = 1
  }
}
list "test_file" "c" {
  provider = test
  config {
    id             = var.id
    content_prefix = "y"
  }
}
`})
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Errorf("validate without -query: exit %d\n%s", r.code, r.stderr)
	}
	r := rig(t, dir, "validate", "-no-color", "-query")
	for _, want := range []string{
		"Error: Invalid list resource\n\n  on q.tfquery.hcl line 4, in list \"test_nope\" \"a\":\n",
		"The provider rig/test does not support list resource \"test_nope\".",
		"Error: Unsupported argument\n\n  on q.tfquery.hcl line 10, in list \"test_file\" \"b\":\n  10:     nope = 1\n",
		"Error: Conflicting filters\n\n  on q.tfquery.hcl line 17, in list \"test_file\" \"c\":\n  17:     content_prefix = \"y\"\n",
	} {
		if r.code == 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("validate -query: exit %d, want %q in:\n%s", r.code, want, r.stderr)
		}
	}
	r = rig(t, dir, "validate", "-json", "-query")
	if r.code == 0 || !strings.Contains(r.stdout, `"valid": false`) || !strings.Contains(r.stdout, `"filename": "q.tfquery.hcl"`) {
		t.Errorf("validate -json -query: exit %d\n%s", r.code, r.stdout)
	}

	writeFile(t, dir, "q.tfquery.hcl", `list "test_file" "c" {
  provider = test
  config {
    id             = "a1"
    content_prefix = "y"
  }
}
`)
	r = rig(t, dir, "query", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "Error: Conflicting filters\n\n  with list.test_file.c,\n  on q.tfquery.hcl line 5, in list \"test_file\" \"c\":\n") {
		t.Errorf("query with a config the provider refuses: exit %d\n%s", r.code, r.stderr)
	}
}

// A list block may use a resource's values as the state records them
// (Terraform plans the resource first; rig's query plans nothing).
func TestQueryResourceReference(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "other", "something else")
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "known" {
  content = "hello known"
}
`, "q.tfquery.hcl": `list "test_file" "same" {
  provider = test
  config {
    id = test_file.known.id
  }
}
`})
	if r := rig(t, dir, "query", "-no-color"); r.code == 0 || !strings.Contains(r.stderr, "Invalid list configuration") {
		t.Errorf("query before the resource exists: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	id := strings.Trim(string(stateInstance(t, dir, "test_file", "known")["identity"]), "{}")
	r := mustRig(t, dir, "query", "-no-color")
	if !strings.HasPrefix(r.stdout, "list.test_file.same   "+strings.ReplaceAll(strings.ReplaceAll(id, `"`, ""), ":", "=")+"   file ") || strings.Contains(r.stdout, "other") {
		t.Errorf("query of the recorded resource (identity %s):\n%s", id, r.stdout)
	}
}
