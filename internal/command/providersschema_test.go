package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/jsonformat"
)

// TestProvidersSchemaBuiltIn prints the built-in provider's schemas in the
// JSON format terraform providers schema -json prints.
func TestProvidersSchemaBuiltIn(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	r := rig(t, dir, "providers", "schema", "-json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("providers schema -json: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "providers/schema-builtin", r.stdout)
}

// TestProvidersSchemaWithoutJSON fails as OpenTofu does: the -json flag
// is required, and the command's help follows on stdout.
func TestProvidersSchemaWithoutJSON(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	r := rig(t, dir, "providers", "schema", "-no-color")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "Usage: rig [global options] providers schema") || !strings.Contains(r.stderr, "Error: Output only in json is allowed") ||
		!strings.Contains(r.stderr, "The `rig providers schema` command requires the `-json` flag.") {
		t.Errorf("providers schema: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProvidersWithSubcommands checks that providers still prints the tree
// when it has no subcommand.
func TestProvidersWithSubcommands(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	r := rig(t, dir, "providers", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "└── provider[terraform.io/builtin/terraform]") {
		t.Errorf("providers: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProvidersSchemaRandom prints the real random provider's schemas:
// resource types, data sources and functions with their attributes'
// types, flags and descriptions, as terraform prints them for it.
func TestProvidersSchemaRandom(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": "resource \"random_id\" \"a\" {\n  byte_length = 4\n}\n"})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	r := rig(t, dir, "providers", "schema", "-json")
	if r.code != 0 {
		t.Fatalf("providers schema -json: exit %d\n%s", r.code, r.stderr)
	}
	var got struct {
		FormatVersion string `json:"format_version"`
		Schemas       map[string]struct {
			Provider        jsonformat.Schema             `json:"provider"`
			ResourceSchemas map[string]*jsonformat.Schema `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	random, ok := got.Schemas["registry.terraform.io/hashicorp/random"]
	if got.FormatVersion != "1.0" || !ok {
		t.Fatalf("format %q, providers %v", got.FormatVersion, got.Schemas)
	}
	if b := random.Provider.Block; b == nil || b.DescriptionKind != "plain" {
		t.Errorf("provider block %+v, want an empty plain one", b)
	}
	id := random.ResourceSchemas["random_id"]
	if id == nil || id.Block == nil {
		t.Fatalf("no random_id schema in %s", r.stdout)
	}
	bl := id.Block.Attributes["byte_length"]
	if bl == nil || string(bl.Type) != `"number"` || !bl.Required || bl.DescriptionKind != "plain" || bl.Description == "" {
		t.Errorf("random_id.byte_length: %+v", bl)
	}
	if k := id.Block.Attributes["keepers"]; k == nil || string(k.Type) != `["map","string"]` || !k.Optional {
		t.Errorf("random_id.keepers: %+v", k)
	}
}
