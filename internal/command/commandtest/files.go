package commandtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// WorkDir writes files (slash-separated names relative to the directory,
// to their contents) into a new temporary directory and returns it.
func WorkDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// WriteFile writes content to dir/name.
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// StateFile is the parts of a version 4 state file the tests check.
type StateFile struct {
	Version          int                        `json:"version"`
	TerraformVersion string                     `json:"terraform_version"`
	Serial           uint64                     `json:"serial"`
	Lineage          string                     `json:"lineage"`
	Outputs          map[string]json.RawMessage `json:"outputs"`
	Resources        []struct {
		Module    string `json:"module"`
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Provider  string `json:"provider"`
		Instances []struct {
			IndexKey            any             `json:"index_key"`
			Status              string          `json:"status"`
			Deposed             string          `json:"deposed"`
			SchemaVersion       *int            `json:"schema_version"`
			Attributes          json.RawMessage `json:"attributes"`
			Dependencies        []string        `json:"dependencies"`
			CreateBeforeDestroy bool            `json:"create_before_destroy"`
			SkipDestroy         bool            `json:"skip_destroy"`
		} `json:"instances"`
	} `json:"resources"`
}

// ReadStateFile reads and strictly checks dir/terraform.tfstate, and
// returns it parsed and as it is.
func ReadStateFile(t testing.TB, dir string) (StateFile, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("reading state: %v", err)
	}
	var sf StateFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&sf); err != nil {
		t.Fatalf("state is not valid JSON: %v", err)
	}
	if sf.Version != 4 || sf.Lineage == "" || sf.TerraformVersion == "" {
		t.Fatalf("state is not a v4 state: version=%d lineage=%q terraform_version=%q", sf.Version, sf.Lineage, sf.TerraformVersion)
	}
	for _, r := range sf.Resources {
		for _, inst := range r.Instances {
			if inst.SchemaVersion == nil || inst.Attributes == nil {
				t.Fatalf("instance of %s.%s lacks schema_version or attributes", r.Type, r.Name)
			}
		}
	}
	return sf, raw
}

// InstanceCount counts the current and deposed objects in a state file.
func InstanceCount(sf StateFile) int {
	n := 0
	for _, r := range sf.Resources {
		n += len(r.Instances)
	}
	return n
}
