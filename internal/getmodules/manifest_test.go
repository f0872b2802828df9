package getmodules

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// terraformFixture reads testdata/terraform-init.txtar, the working
// directory Terraform initialized, keyed by file name.
func terraformFixture(t *testing.T) map[string][]byte {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/terraform-init.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	// txtar ends every file with a newline; Terraform's manifest has none.
	files["want/modules.json"] = bytes.TrimSuffix(files["want/modules.json"], []byte("\n"))
	return files
}

func TestManifestMatchesTerraform(t *testing.T) {
	want := terraformFixture(t)["want/modules.json"]
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), want, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantRecords := []Record{
		{Key: "", Source: "", Dir: "."},
		{Key: "app", Source: "git::REPO?ref=v1&depth=1", Dir: ".terraform/modules/app"},
		{Key: "net", Source: "./modules/net", Dir: "modules/net"},
		{Key: "net-2", Source: "./modules/sub", Dir: "modules/sub"},
		{Key: "net.remote", Source: "git::REPO?ref=main", Dir: ".terraform/modules/net.remote"},
		{Key: "net.sub", Source: "../sub", Dir: "modules/sub"},
		{Key: "net_b", Source: "./modules/sub", Dir: "modules/sub"},
		{Key: "pkg", Source: "git::REPO//modules/x?ref=v1", Dir: ".terraform/modules/pkg/modules/x"},
		{Key: "pkg.inner", Source: "../y", Dir: ".terraform/modules/pkg/modules/y"},
	}
	if diff := cmp.Diff(wantRecords, m.Records); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}

	// Written back in another order, the file is Terraform's byte for byte.
	shuffled := Manifest{Records: append([]Record(nil), m.Records...)}
	for i, j := 0, len(shuffled.Records)-1; i < j; i, j = i+1, j-1 {
		shuffled.Records[i], shuffled.Records[j] = shuffled.Records[j], shuffled.Records[i]
	}
	out := t.TempDir()
	if err := WriteManifest(out, shuffled); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("written manifest differs from Terraform's:\nwant %s\ngot  %s", want, got)
	}
	if shuffled.Records[0].Key != "pkg.inner" {
		t.Errorf("WriteManifest reordered the records it was given")
	}
	if fi, err := os.Stat(filepath.Join(out, ManifestFile)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("manifest mode = %v, %v; want 0644", fi.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("WriteManifest left %d files, want only %s", len(entries), ManifestFile)
	}
}

func TestManifestDir(t *testing.T) {
	m := Manifest{Records: []Record{
		{Key: "", Dir: "."},
		{Key: "net", Source: "./modules/net", Dir: "modules/net"},
	}}
	tests := []struct {
		key    string
		want   string
		wantOK bool
	}{
		{key: "", want: ".", wantOK: true},
		{key: "net", want: "modules/net", wantOK: true},
		{key: "net.sub", want: "", wantOK: false},
	}
	for _, tt := range tests {
		got, ok := m.Dir(tt.key)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Dir(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestManifestVersionOnlyWhenSet(t *testing.T) {
	m := Manifest{Records: []Record{
		{Key: "", Dir: "."},
		{Key: "vpc", Source: "registry.terraform.io/terraform-aws-modules/vpc/aws", Version: "5.1.0", Dir: ".terraform/modules/vpc"},
	}}
	got, err := marshalManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	empty, _ := marshalManifest(Manifest{})
	if string(empty) != `{"Modules":[]}` {
		t.Errorf("empty manifest = %s", empty)
	}
}

func TestReadManifest(t *testing.T) {
	tests := []struct {
		name    string
		content string // "" means no file
		want    Manifest
		err     string
	}{
		{name: "missing file is empty", want: Manifest{}},
		{name: "corrupt", content: `{"Modules":[`, err: "read module manifest"},
		{name: "trailing data", content: `{"Modules":[]}{}`, err: "data after the JSON object"},
		{name: "key twice", content: `{"Modules":[{"Key":"a","Dir":"x"},{"Key":"a","Dir":"y"}]}`, err: `module "a" is recorded twice`},
		{name: "sorted on read", content: `{"Modules":[{"Key":"b","Source":"./b","Dir":"b"},{"Key":"","Source":"","Dir":"."}]}`,
			want: Manifest{Records: []Record{{Key: "", Dir: "."}, {Key: "b", Source: "./b", Dir: "b"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ManifestFile)
			if tt.content != "" {
				if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ReadManifest(dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), path) {
					t.Fatalf("error = %v, want one naming %s and containing %q", err, path, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
