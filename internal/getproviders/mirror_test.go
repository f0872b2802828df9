package getproviders

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
)

// TestSelectAndMirror selects versions without installing, hashes the
// packages of both layouts, and writes them to a packed mirror whose
// archives hash as the originals do.
func TestSelectAndMirror(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	mirror := fakeMirror(t, "null", []string{"3.1.0", "3.2.0"}, []string{"3.2.4", "4.0.0"})
	inst := &Installer{Sources: []SourceEntry{{Source: FilesystemMirror{Dir: mirror}}}}
	ctx := context.Background()
	cs, _ := ParseConstraints("~> 3.1")
	req := Requirement{Provider: null, Constraints: cs}

	v, ds := inst.SelectVersion(ctx, req, nil)
	if ds.HasErrors() || v.String() != "3.2.4" {
		t.Fatalf("SelectVersion = %s, %v; want 3.2.4", v, ds.Err())
	}
	if v, ds := inst.SelectVersion(ctx, req, &Lock{Provider: null, Version: mustVersion(t, "3.1.0")}); ds.HasErrors() || v.String() != "3.1.0" {
		t.Errorf("SelectVersion with a lock = %s, %v; want 3.1.0", v, ds.Err())
	}
	if _, ds := inst.SelectVersion(ctx, req, &Lock{Provider: null, Version: mustVersion(t, "4.0.0")}); !ds.HasErrors() {
		t.Errorf("SelectVersion with a lock the constraints exclude succeeded")
	}

	out := t.TempDir()
	for _, version := range []string{"3.2.4", "3.2.0"} { // a zip, then an unpacked directory
		f, err := inst.Fetch(ctx, null, mustVersion(t, version), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		pkg, hashes := f.Package, f.Hashes
		want := 1
		if pkg.Kind == PackageZip {
			want = 2
		}
		if len(hashes) != want {
			t.Errorf("%s: hashes %v, want %d", version, hashes, want)
		}
		path, err := WriteMirrorArchive(out, pkg)
		if err != nil {
			t.Fatal(err)
		}
		if h1, err := HashZip(path); err != nil || h1 != hashes[0] {
			t.Errorf("%s: mirrored archive hashes %s (%v), want %s", version, h1, err, hashes[0])
		}
	}
	if err := WriteMirrorIndex(out, null); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(out, "registry.terraform.io", "hashicorp", "null", "index.json"))
	if diff := cmp.Diff("{\n  \"versions\": {\n    \"3.2.0\": {},\n    \"3.2.4\": {}\n  }\n}\n", string(index)); diff != "" {
		t.Errorf("index.json (-want +got):\n%s", diff)
	}
	// The packed mirror is a source like any other.
	vs, err := FilesystemMirror{Dir: out}.AvailableVersions(ctx, null, CurrentPlatform)
	if err != nil || len(vs) != 2 {
		t.Errorf("versions in the written mirror: %v, %v", vs, err)
	}
}
