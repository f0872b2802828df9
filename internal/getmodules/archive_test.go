package getmodules

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// extract writes data to a file and extracts it (format) into a new
// directory dir/out, returning the paths (slash-separated, relative to
// dir) of everything then under dir, links shown as "name -> target".
func extract(t *testing.T, data []byte, format archiveFormat, limits Limits) ([]string, error) {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "archive"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	xerr := extractArchive(f, format, out, limits)
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			rel += " -> " + target
		}
		got = append(got, rel)
		return nil
	})
	sort.Strings(got)
	return got, xerr
}

func TestExtractArchive(t *testing.T) {
	tests := []struct {
		name    string
		entries []entry
		limits  Limits
		// want lists what is under the test directory afterwards (the
		// archive file and out/…) when there is no error.
		want []string
		err  string // substring of an errArchive error
	}{
		{
			name:    "files, directories and an inner link",
			entries: []entry{{Name: "a/", Dir: true}, {Name: "a/main.tf", Body: "x"}, {Name: "./b.tf", Body: "y"}, {Name: "a/link.tf", Link: "../b.tf"}},
			want:    []string{"archive", "out", "out/a", "out/a/link.tf -> ../b.tf", "out/a/main.tf", "out/b.tf"},
		},
		{
			name:    "dot-dot entry",
			entries: []entry{{Name: "../evil.tf", Body: "x"}},
			err:     `the entry "../evil.tf" leads outside of the archive`,
		},
		{
			name:    "dot-dot inside the name",
			entries: []entry{{Name: "a/../../evil.tf", Body: "x"}},
			err:     "leads outside of the archive",
		},
		{
			name:    "absolute entry",
			entries: []entry{{Name: "/tmp/evil.tf", Body: "x"}},
			err:     "has an absolute path",
		},
		{
			name:    "link escaping",
			entries: []entry{{Name: "a/l", Link: "../../outside"}},
			err:     `the symbolic link "a/l" points outside of the archive`,
		},
		{
			name:    "absolute link",
			entries: []entry{{Name: "l", Link: "/etc/passwd"}},
			err:     "points to the absolute path",
		},
		{
			name: "link escaping through another link",
			entries: []entry{
				{Name: "a/", Dir: true}, {Name: "a/up", Link: ".."},
				{Name: "x", Link: "a/up/a/up/../archive"},
			},
			err: "points outside of the archive",
		},
		{
			name:    "file written through a link",
			entries: []entry{{Name: "d", Link: "."}, {Name: "d/f.tf", Body: "x"}},
			err:     `the symbolic link "d" is also another entry`,
		},
		{
			name:    "link behind a link",
			entries: []entry{{Name: "sub/", Dir: true}, {Name: "d", Link: "sub"}, {Name: "d/l", Link: "../x"}},
			err:     "lies behind another symbolic link",
		},
		{
			name:    "too large",
			entries: []entry{{Name: "big.tf", Body: strings.Repeat("x", 100)}},
			limits:  Limits{MaxBytes: 50},
			err:     "its files hold more than 50 bytes",
		},
		{
			name:    "too many entries",
			entries: []entry{{Name: "a.tf"}, {Name: "b.tf"}, {Name: "c.tf"}},
			limits:  Limits{MaxFiles: 2},
			err:     "more than 2 entries",
		},
	}
	for _, tt := range tests {
		for _, format := range []archiveFormat{zipArchive, tarGzArchive} {
			t.Run(tt.name+"/"+format.String(), func(t *testing.T) {
				data := zipOf(t, tt.entries)
				if format == tarGzArchive {
					data = tarGz(t, tt.entries)
				}
				got, err := extract(t, data, format, tt.limits)
				if tt.err != "" {
					if !errors.Is(err, errArchive) || !strings.Contains(err.Error(), tt.err) {
						t.Fatalf("error %v, want an invalid archive error containing %q", err, tt.err)
					}
					for _, p := range got {
						if !strings.HasPrefix(p, "archive") && !strings.HasPrefix(p, "out") {
							t.Errorf("%s was written outside of the target directory", p)
						}
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("extracted (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestArchiveOf(t *testing.T) {
	tests := []struct {
		in, url string
		format  archiveFormat
		err     string
	}{
		{in: "https://h/m.zip", url: "https://h/m.zip", format: zipArchive},
		{in: "https://h/m.tar.gz?x=1", url: "https://h/m.tar.gz?x=1", format: tarGzArchive},
		{in: "https://h/m.tgz", url: "https://h/m.tgz", format: tarGzArchive},
		{in: "https://h/m.tar.bz2", url: "https://h/m.tar.bz2", format: tarBz2Archive},
		{in: "https://h/m.tar", url: "https://h/m.tar", format: tarArchive},
		{in: "https://h/get?archive=zip&id=3", url: "https://h/get?id=3", format: zipArchive},
		{in: "https://h/m.zip?archive=false", url: "https://h/m.zip", format: noArchive},
		{in: "https://h/modules/net", url: "https://h/modules/net", format: noArchive},
		{in: "https://h/get?archive=rar", err: `unsupported archive format "rar"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			format, u, err := archiveOf(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || format != tt.format || u != tt.url {
				t.Errorf("archiveOf(%q) = %s, %q, %v; want %s, %q", tt.in, format, u, err, tt.format, tt.url)
			}
		})
	}
}

// TestInstallArchiveTraversal: an archive that would write outside of its
// module directory is refused at the module call, and nothing is left.
func TestInstallArchiveTraversal(t *testing.T) {
	srv := newServer(t)
	srv.Files["/evil.tar.gz"] = tarGz(t, []entry{{Name: "main.tf"}, {Name: "../../../escaped.tf", Body: "x"}})
	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "` + srv.URL + `/evil.tar.gz" }`})
	_, ds, _ := install(t, Installer{WorkDir: wd, HTTPClient: srv.Client()})
	if len(ds) != 1 || ds[0].Summary != "Invalid module archive" || !strings.Contains(ds[0].Detail, "leads outside of the archive") {
		t.Fatalf("diagnostics %v, want one invalid module archive", ds.Err())
	}
	for _, p := range []string{"escaped.tf", ".terraform/escaped.tf", ".terraform/modules/escaped.tf", "../escaped.tf", ".terraform/modules/m"} {
		if _, err := os.Lstat(filepath.Join(wd, p)); !os.IsNotExist(err) {
			t.Errorf("%s exists (%v)", p, err)
		}
	}
}

func TestSniffArchive(t *testing.T) {
	es := []entry{{Name: "main.tf", Body: "x"}}
	tgz := tarGz(t, es)
	tests := []struct {
		name string
		data []byte
		want archiveFormat
		err  string
	}{
		{"zip", zipOf(t, es), zipArchive, ""},
		{"tar.gz", tgz, tarGzArchive, ""},
		{"bzip2", []byte("BZh91AY&SY"), tarBz2Archive, ""},
		{"html page", []byte("<html>not found</html>"), noArchive, "not a zip, tar, tar.gz or tar.bz2 archive"},
		{"empty", nil, noArchive, "not a zip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "a"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.Write(tt.data)
			f.Seek(0, 0)
			got, err := sniffArchive(f)
			if tt.err != "" {
				if !errors.Is(err, errArchive) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("sniffArchive = %s, %v; want %s", got, err, tt.want)
			}
			if pos, _ := f.Seek(0, 1); pos != 0 {
				t.Errorf("file left at offset %d, want 0", pos)
			}
		})
	}
}

// FuzzExtractArchive: whatever an archive holds, extracting it either
// fails with an invalid archive error or writes only inside its directory.
func FuzzExtractArchive(f *testing.F) {
	t := &testing.T{}
	f.Add(zipOf(t, []entry{{Name: "a/main.tf", Body: "x"}, {Name: "l", Link: "a/main.tf"}}), true)
	f.Add(tarGz(t, []entry{{Name: "a/", Dir: true}, {Name: "a/up", Link: ".."}, {Name: "x", Link: "a/up/x"}}), false)
	f.Add(tarGz(t, []entry{{Name: "../x", Body: "y"}}), false)
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		format := tarGzArchive
		if isZip {
			format = zipArchive
		}
		got, err := extract(t, data, format, Limits{MaxBytes: 1 << 20, MaxFiles: 100})
		if err != nil && !errors.Is(err, errArchive) {
			t.Fatalf("error %v is not an invalid archive error", err)
		}
		for _, p := range got {
			if p != "archive" && p != "out" && !strings.HasPrefix(p, "out/") {
				t.Fatalf("%s was written outside of the target directory", p)
			}
		}
	})
}
