package getmodules

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// writeFiles writes files (slash-separated names) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// install loads the root module of workDir and installs its modules.
func install(t *testing.T, inst Installer) (Manifest, diag.Diagnostics, string) {
	t.Helper()
	root, ds := config.LoadDir(inst.WorkDir)
	if ds.HasErrors() {
		t.Fatalf("load root module: %v", ds.Err())
	}
	var out bytes.Buffer
	inst.Out = &out
	m, ds := inst.Install(context.Background(), root)
	return m, ds, out.String()
}

func mustInstall(t *testing.T, inst Installer) (Manifest, string) {
	t.Helper()
	m, ds, out := install(t, inst)
	if len(ds) > 0 {
		t.Fatalf("Install: %v\noutput:\n%s", ds.Err(), out)
	}
	onDisk, err := ReadManifest(filepath.Join(inst.WorkDir, ModulesDir))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, onDisk); diff != "" {
		t.Fatalf("returned manifest differs from the written one (-returned +written):\n%s", diff)
	}
	return m, out
}

func TestInstallLocalModules(t *testing.T) {
	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{
		"main.tf":               "module \"net\" {\n  source = \"./modules/net\"\n}\nmodule \"app\" {\n  source = \"./modules//app/\"\n}\n",
		"modules/net/main.tf":   `module "sub" { source = "../sub" }`,
		"modules/sub/main.tf":   `module "leaf" { source = "./leaf" }`,
		"modules/sub/leaf/a.tf": `output "x" { value = 1 }`,
		"modules/app/main.tf":   `module "shared" { source = "../../shared" }`,
		"shared/main.tf":        `output "y" { value = 2 }`,
	})
	m, out := mustInstall(t, Installer{WorkDir: wd})
	want := []Record{
		{Key: "", Dir: "."},
		{Key: "app", Source: "./modules/app", Dir: "modules/app"},
		{Key: "app.shared", Source: "../../shared", Dir: "shared"},
		{Key: "net", Source: "./modules/net", Dir: "modules/net"},
		{Key: "net.sub", Source: "../sub", Dir: "modules/sub"},
		{Key: "net.sub.leaf", Source: "./leaf", Dir: "modules/sub/leaf"},
	}
	if diff := cmp.Diff(want, m.Records); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	wantOut := `- app in modules/app
- app.shared in shared
- net in modules/net
- net.sub in modules/sub
- net.sub.leaf in modules/sub/leaf
`
	if diff := cmp.Diff(wantOut, out); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}

	// A second run finds everything recorded and says nothing, as terraform.
	if _, out := mustInstall(t, Installer{WorkDir: wd}); out != "" {
		t.Errorf("second run printed %q, want nothing", out)
	}
}

func TestInstallDiagnostics(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		git     bool
		summary string
		detail  string // substring
		file    string // of the diagnostic's subject, slash-separated
		line    int
	}{
		{
			name:    "s3 source",
			files:   map[string]string{"main.tf": "module \"consul\" {\n  source = \"s3::https://s3.amazonaws.com/b/net.zip\"\n}\n"},
			summary: "Unsupported module source",
			detail:  `"s3::https://s3.amazonaws.com/b/net.zip" is a "s3" source, which rig does not support: rig installs modules from local paths`,
			file:    "main.tf", line: 2,
		},
		{
			name:    "github shorthand",
			files:   map[string]string{"main.tf": `module "x" { source = "github.com/org/repo" }`},
			summary: "Unsupported module source",
			detail:  "git::https://github.com/",
			file:    "main.tf", line: 1,
		},
		{
			name:    "version on a local source",
			files:   map[string]string{"main.tf": "module \"a\" {\n  source  = \"./x\"\n  version = \"1.0\"\n}\n", "x/main.tf": ""},
			summary: "Invalid registry module source address",
			detail:  `can't use local directory "./x" as a module registry address.` + "\n\nrig assumed",
			file:    "main.tf", line: 2,
		},
		{
			name:    "version on a git source",
			files:   map[string]string{"main.tf": "module \"a\" {\n  source  = \"git::file:///nowhere/r.git\"\n  version = \"1.0\"\n}\n"},
			summary: "Invalid registry module source address",
			detail:  "must have either three or four slash-separated components",
			file:    "main.tf", line: 2,
		},
		{
			name:    "version on a registry address whose host is invalid",
			files:   map[string]string{"main.tf": "module \"a\" {\n  source  = \"---.com/HashiCorp/Consul/aws\"\n  version = \"1.0.0\"\n}\n"},
			summary: "Invalid registry module source address",
			detail:  `Failed to parse module registry address: invalid module registry hostname "---.com": `,
			file:    "main.tf", line: 2,
		},
		{
			name:    "missing directory",
			files:   map[string]string{"main.tf": `module "nope" { source = "./nope" }`},
			summary: "Unreadable module directory",
			detail:  `The directory nope could not be read for module "nope" at main.tf:1: it does not exist.`,
			file:    "main.tf", line: 1,
		},
		{
			name: "missing directory in a child",
			files: map[string]string{
				"main.tf":   `module "a" { source = "./a" }`,
				"a/main.tf": "\n\nmodule \"b\" { source = \"../b\" }",
			},
			summary: "Unreadable module directory",
			detail:  `The directory b could not be read for module "a.b"`,
			file:    "a/main.tf", line: 3,
		},
		{
			name:    "invalid source",
			files:   map[string]string{"main.tf": `module "a" { source = "git::https://h/r.git?sshkey=k" }`},
			summary: "Invalid module source address",
			detail:  `unsupported query parameter "sshkey"`,
			file:    "main.tf", line: 1,
		},
		{
			name: "recursion",
			files: map[string]string{
				"main.tf":   `module "a" { source = "./a" }`,
				"a/main.tf": `module "again" { source = "../a" }`,
			},
			summary: "Recursive module call",
			detail:  `Module "a.again" is a, which is also one of its calling modules`,
			file:    "a/main.tf", line: 1,
		},
		{
			name:    "git not found",
			files:   map[string]string{"main.tf": `module "a" { source = "git::file:///nowhere/r.git" }`},
			git:     true,
			summary: "Failed to download module",
			detail:  `Could not download module "a" (main.tf:1) source code from "git::file:///nowhere/r.git": rig needs git to install git sources`,
			file:    "main.tf", line: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			writeFiles(t, wd, tt.files)
			inst := Installer{WorkDir: wd}
			if tt.git {
				inst.Git = filepath.Join(wd, "no-such-git")
			}
			m, ds, _ := install(t, inst)
			if len(ds) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds.Err())
			}
			d := ds[0]
			if d.Severity != diag.Error || d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("got %s %q: %q\nwant error %q with detail containing %q", d.Severity, d.Summary, d.Detail, tt.summary, tt.detail)
			}
			wantFile := filepath.Join(wd, filepath.FromSlash(tt.file))
			if d.Subject == nil || d.Subject.Filename != wantFile || d.Subject.Start.Line != tt.line {
				t.Errorf("subject = %v, want %s line %d", d.Subject, wantFile, tt.line)
			}
			if _, ok := m.Dir(""); !ok {
				t.Errorf("the manifest lacks the root module: %v", m)
			}
		})
	}
}

// requireGit skips the test when git is not installed.
func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
}

// gitRepo is a bare repository made by a test, with a work tree to commit from.
type gitRepo struct {
	t    *testing.T
	bare string // path of the bare repository
	work string
}

// URL is the repository's file URL.
func (r *gitRepo) URL() string { return "file://" + filepath.ToSlash(r.bare) }

// newGitRepo creates a bare repository whose branch main has one commit
// with files, tagged v1.
func newGitRepo(t *testing.T, files map[string]string) *gitRepo {
	t.Helper()
	requireGit(t)
	dir := t.TempDir()
	r := &gitRepo{t: t, bare: filepath.Join(dir, "repo.git"), work: filepath.Join(dir, "work")}
	r.git(dir, "init", "--quiet", "--bare", r.bare)
	r.git(dir, "init", "--quiet", "--initial-branch=main", r.work)
	r.commit("one", files)
	r.git(r.work, "tag", "v1")
	r.git(r.work, "push", "--quiet", r.bare, "main", "v1")
	return r
}

func (r *gitRepo) git(dir string, args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=rig", "-c", "user.email=rig@example.com",
		"-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// commit commits files on main and pushes it.
func (r *gitRepo) commit(msg string, files map[string]string) {
	r.t.Helper()
	writeFiles(r.t, r.work, files)
	r.git(r.work, "add", "-A")
	r.git(r.work, "commit", "--quiet", "-m", msg)
	r.git(r.work, "push", "--quiet", r.bare, "main")
}

// TestInstallLikeTerraform installs the configuration of
// testdata/terraform-init.txtar and compares the manifest and progress with
// what terraform init wrote and printed for it.
func TestInstallLikeTerraform(t *testing.T) {
	fixture := terraformFixture(t)
	repoFiles := map[string]string{}
	for name, data := range fixture {
		if rest, ok := strings.CutPrefix(name, "repo/"); ok {
			repoFiles[rest] = string(data)
		}
	}
	repo := newGitRepo(t, repoFiles)
	wd := t.TempDir()
	for name, data := range fixture {
		if !strings.HasPrefix(name, "repo/") && !strings.HasPrefix(name, "want/") {
			writeFiles(t, wd, map[string]string{name: strings.ReplaceAll(string(data), "REPO", repo.URL())})
		}
	}
	_, out := mustInstall(t, Installer{WorkDir: wd})
	got, err := os.ReadFile(filepath.Join(wd, ".terraform", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.ReplaceAll(fixture["want/modules.json"], []byte("REPO"), []byte(repo.URL()))
	if !bytes.Equal(want, got) {
		t.Errorf("manifest differs from Terraform's:\nwant %s\ngot  %s", want, got)
	}
	wantOut := strings.ReplaceAll(string(fixture["want/progress"]), "REPO", repo.URL())
	if diff := cmp.Diff(wantOut, out); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	for _, f := range []string{"app/main.tf", "net.remote/main.tf", "pkg/modules/y/main.tf"} {
		if _, err := os.Stat(filepath.Join(wd, ".terraform", "modules", filepath.FromSlash(f))); err != nil {
			t.Errorf("not installed: %v", err)
		}
	}
}

func TestInstallGit(t *testing.T) {
	repo := newGitRepo(t, map[string]string{
		"main.tf":           `output "v" { value = "one" }`,
		"modules/x/main.tf": `module "y" { source = "../y" }`,
		"modules/y/main.tf": `output "y" { value = 1 }`,
		"escape/main.tf":    `module "out" { source = "../../outside" }`,
	})
	readVersion := func(t *testing.T, wd, key string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(wd, ".terraform", "modules", key, "main.tf"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	t.Run("tag and subdir", func(t *testing.T) {
		wd := t.TempDir()
		writeFiles(t, wd, map[string]string{"main.tf": `
module "app" { source = "git::` + repo.URL() + `?ref=v1" }
module "x" { source = "git::` + repo.URL() + `//modules/x?ref=v1" }
module "shallow" { source = "git::` + repo.URL() + `?ref=main&depth=1" }
`})
		m, _ := mustInstall(t, Installer{WorkDir: wd})
		want := []Record{
			{Key: "", Dir: "."},
			{Key: "app", Source: "git::" + repo.URL() + "?ref=v1", Dir: ".terraform/modules/app"},
			{Key: "shallow", Source: "git::" + repo.URL() + "?ref=main&depth=1", Dir: ".terraform/modules/shallow"},
			{Key: "x", Source: "git::" + repo.URL() + "//modules/x?ref=v1", Dir: ".terraform/modules/x/modules/x"},
			{Key: "x.y", Source: "../y", Dir: ".terraform/modules/x/modules/y"},
		}
		if diff := cmp.Diff(want, m.Records); diff != "" {
			t.Errorf("records (-want +got):\n%s", diff)
		}
	})

	t.Run("reuse, upgrade and removal", func(t *testing.T) {
		wd := t.TempDir()
		writeFiles(t, wd, map[string]string{"main.tf": `
module "tagged" { source = "git::` + repo.URL() + `?ref=v1" }
module "branch" { source = "git::` + repo.URL() + `?ref=main" }
`})
		mustInstall(t, Installer{WorkDir: wd})
		repo.commit("two", map[string]string{"main.tf": `output "v" { value = "two" }`})

		_, out := mustInstall(t, Installer{WorkDir: wd})
		if out != "" {
			t.Errorf("reinstall without upgrade printed %q, want nothing", out)
		}
		if got := readVersion(t, wd, "branch"); !strings.Contains(got, "one") {
			t.Errorf("without upgrade, branch has %q, want the first commit", got)
		}

		_, out = mustInstall(t, Installer{WorkDir: wd, Upgrade: true})
		wantOut := "Downloading git::" + repo.URL() + "?ref=main for branch...\n- branch in .terraform/modules/branch\n" +
			"Downloading git::" + repo.URL() + "?ref=v1 for tagged...\n- tagged in .terraform/modules/tagged\n"
		if diff := cmp.Diff(wantOut, out); diff != "" {
			t.Errorf("upgrade progress (-want +got):\n%s", diff)
		}
		if got := readVersion(t, wd, "branch"); !strings.Contains(got, "two") {
			t.Errorf("after upgrade, branch has %q, want the new commit", got)
		}
		if got := readVersion(t, wd, "tagged"); !strings.Contains(got, "one") {
			t.Errorf("after upgrade, tagged has %q, want the tagged commit", got)
		}

		// A module no longer called is removed; other files are kept.
		writeFiles(t, wd, map[string]string{
			"main.tf":                        `module "tagged" { source = "git::` + repo.URL() + `?ref=v1" }`,
			".terraform/modules/not a key/f": "kept",
		})
		m, _ := mustInstall(t, Installer{WorkDir: wd})
		if _, ok := m.Dir("branch"); ok {
			t.Errorf("branch is still in the manifest")
		}
		if _, err := os.Stat(filepath.Join(wd, ".terraform", "modules", "branch")); !os.IsNotExist(err) {
			t.Errorf("the directory of branch was not removed: %v", err)
		}
		if _, err := os.Stat(filepath.Join(wd, ".terraform", "modules", "not a key", "f")); err != nil {
			t.Errorf("a directory that is not a module's was removed: %v", err)
		}
	})

	t.Run("changed source is fetched again", func(t *testing.T) {
		wd := t.TempDir()
		writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "git::` + repo.URL() + `?ref=v1" }`})
		mustInstall(t, Installer{WorkDir: wd})
		writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "git::` + repo.URL() + `//modules/y?ref=main" }`})
		m, out := mustInstall(t, Installer{WorkDir: wd})
		if !strings.HasPrefix(out, "Downloading ") {
			t.Errorf("progress %q, want a download", out)
		}
		if dir, _ := m.Dir("m"); dir != ".terraform/modules/m/modules/y" {
			t.Errorf("Dir = %q", dir)
		}
	})

	errorTests := []struct {
		name    string
		source  string
		summary string
		detail  string
		file    string // of the diagnostic's subject, relative to the working directory
		line    int
	}{
		{name: "unknown ref", source: "?ref=nosuch", summary: "Failed to download module",
			detail: "exited with 128: fatal: invalid reference: nosuch", file: "main.tf", line: 2},
		{name: "unknown repository", source: "-missing?ref=v1", summary: "Failed to download module",
			detail: "does not appear to be a git repository", file: "main.tf", line: 2},
		{name: "missing subdir", source: "//nosuch?ref=v1", summary: "Unreadable module directory",
			detail: `the package has no subdirectory "nosuch"`, file: "main.tf", line: 2},
		{name: "local path escaping the repository", source: "//escape?ref=v1", summary: "Local module path escapes module package",
			detail: `would be outside of its containing package "git::` + repo.URL() + `?ref=v1"`,
			file:   ".terraform/modules/m/escape/main.tf", line: 1},
	}
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": "module \"m\" {\n  source = \"git::" + repo.URL() + tt.source + "\"\n}\n"})
			_, ds, _ := install(t, Installer{WorkDir: wd})
			if len(ds) != 1 || ds[0].Summary != tt.summary || !strings.Contains(ds[0].Detail, tt.detail) {
				t.Fatalf("got %v\nwant %q with detail containing %q", ds.Err(), tt.summary, tt.detail)
			}
			wantFile := filepath.Join(wd, filepath.FromSlash(tt.file))
			if s := ds[0].Subject; s == nil || s.Filename != wantFile || s.Start.Line != tt.line {
				t.Errorf("subject = %v, want %s line %d", s, wantFile, tt.line)
			}
		})
	}
}

func TestInstallCancelled(t *testing.T) {
	requireGit(t)
	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "git::file:///nowhere/r.git" }`})
	root, _ := config.LoadDir(wd)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, ds := (&Installer{WorkDir: wd}).Install(ctx, root)
	if len(ds) != 1 || ds[0].Summary != "Module installation cancelled" {
		t.Errorf("got %v, want a cancellation", ds.Err())
	}
}
