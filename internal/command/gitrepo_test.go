package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo commits files (slash-separated names to contents) into a new
// bare git repository, on branch main and at tag v1, and returns the
// repository's directory; it skips the test when git is not on PATH.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	repo := filepath.Join(t.TempDir(), "modules.git")
	work := workDir(t, files)
	gitRun := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gitRun(".", "init", "-q", "--bare", repo)
	gitRun(work, "init", "-q")
	gitRun(work, "add", ".")
	gitRun(work, "commit", "-q", "-m", "v1")
	gitRun(work, "tag", "v1")
	gitRun(work, "push", "-q", repo, "HEAD:refs/heads/main", "v1")
	return repo
}
