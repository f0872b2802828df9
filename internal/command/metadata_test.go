package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// signatureFacts is a function signature without its descriptions: what
// must match OpenTofu's key by key.
type signatureFacts struct {
	ReturnType        json.RawMessage  `json:"return_type"`
	Parameters        []parameterFacts `json:"parameters"`
	VariadicParameter *parameterFacts  `json:"variadic_parameter"`
}

type parameterFacts struct {
	Name       string          `json:"name"`
	IsNullable bool            `json:"is_nullable"`
	Type       json.RawMessage `json:"type"`
}

// knownFunctionDifferences are the functions whose signature in rig
// differs from OpenTofu 1.12's, each with why. An entry whose difference
// is gone fails the test, so that the list stays true.
var knownFunctionDifferences = map[string]string{}

// functionAdditions are the functions rig has that OpenTofu 1.12 does not,
// each with where it comes from.
var functionAdditions = map[string]string{
	"convert": "Terraform 1.15 and OpenTofu 1.13",
}

// `metadata functions -json` prints every function rig has with the
// signature OpenTofu 1.12.6 prints for it (its output, descriptions left
// out, is testdata/metadata/opentofu-1.12.6-functions.json), under its
// name and under core::NAME; it requires -json.
func TestMetadataFunctions(t *testing.T) {
	dir := t.TempDir()
	r := rig(t, dir, "metadata", "functions", "-json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var got struct {
		FormatVersion string                     `json:"format_version"`
		Signatures    map[string]json.RawMessage `json:"function_signatures"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	if got.FormatVersion != "1.0" {
		t.Errorf("format_version %q", got.FormatVersion)
	}
	ref, err := os.ReadFile(filepath.Join("testdata", "metadata", "opentofu-1.12.6-functions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Signatures map[string]json.RawMessage `json:"function_signatures"`
	}
	if err := json.Unmarshal(ref, &want); err != nil {
		t.Fatal(err)
	}
	facts := func(raw json.RawMessage) signatureFacts {
		var s signatureFacts
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	differing := map[string]bool{}
	for name, w := range want.Signatures {
		base := strings.TrimPrefix(name, "core::")
		g, ok := got.Signatures[name]
		if !ok {
			if knownFunctionDifferences[base] == "" {
				t.Errorf("%s is missing", name)
			}
			differing[base] = true
			continue
		}
		if diff := cmp.Diff(facts(w), facts(g), cmp.Transformer("json", compactRaw)); diff != "" {
			if knownFunctionDifferences[base] == "" {
				t.Errorf("%s differs from OpenTofu's (-want +got):\n%s", name, diff)
			}
			differing[base] = true
		}
		if !strings.HasPrefix(name, "core::") {
			if _, ok := got.Signatures["core::"+name]; !ok {
				t.Errorf("%s has no core:: name", name)
			}
		}
	}
	for name := range got.Signatures {
		if _, ok := want.Signatures[name]; !ok && functionAdditions[strings.TrimPrefix(name, "core::")] == "" {
			t.Errorf("%s is not a function OpenTofu 1.12 has", name)
		}
	}
	for name, why := range knownFunctionDifferences {
		if !differing[name] {
			t.Errorf("%s is listed as differing (%s) but matches OpenTofu now: remove it from knownFunctionDifferences", name, why)
		}
	}
	// A parameter's and a function's description are rig's own, where it has one.
	var abs struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(got.Signatures["abs"], &abs)
	if abs.Description == "" {
		t.Errorf("abs has no description")
	}

	r = rig(t, dir, "metadata", "functions", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "requires the `-json` flag") {
		t.Errorf("without -json: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "metadata")
	if r.code != 1 || !slices.ContainsFunc(strings.Split(r.stderr, "\n"), func(l string) bool { return strings.Contains(l, "functions") }) {
		t.Errorf("metadata without a subcommand: exit %d\n%s", r.code, r.stderr)
	}
}

// compactRaw is m without insignificant white space.
func compactRaw(m json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, m); err != nil {
		return string(m)
	}
	return b.String()
}
