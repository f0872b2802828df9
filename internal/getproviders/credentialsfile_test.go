package getproviders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStoreAndRemoveToken: login records a host's token in the
// credentials file, keeping what else the file holds (other hosts, other
// properties), privately; logout removes it again, and says when there
// was none.
func TestStoreAndRemoveToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".terraform.d", "credentials.tfrc.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"credentials":{"other.example":{"token":"o"}},"extra":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := StoreToken(file, "app.example", "secret"); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"credentials": map[string]any{"other.example": map[string]any{"token": "o"}, "app.example": map[string]any{"token": "secret"}}, "extra": float64(1)}
	if diff := cmp.Diff(want, readJSON(t, file)); diff != "" {
		t.Errorf("after login (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	removed, err := RemoveToken(file, "app.example")
	if err != nil || !removed {
		t.Fatalf("RemoveToken = %v, %v; want true", removed, err)
	}
	delete(want["credentials"].(map[string]any), "app.example")
	if diff := cmp.Diff(want, readJSON(t, file)); diff != "" {
		t.Errorf("after logout (-want +got):\n%s", diff)
	}
	if removed, err := RemoveToken(file, "app.example"); err != nil || removed {
		t.Errorf("RemoveToken of a missing token = %v, %v; want false", removed, err)
	}
}

func readJSON(t *testing.T, file string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
