package txtartest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"golang.org/x/tools/txtar"
)

func TestCheckUpdateWritesTheSection(t *testing.T) {
	tests := []struct {
		name, archive, want string
	}{
		{"section replaced", "-- main.tf --\nx\n-- want --\nold\n", "-- main.tf --\nx\n-- want --\nnew\n"},
		{"section added", "-- main.tf --\nx\n", "-- main.tf --\nx\n-- want --\nnew\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.txtar")
			if err := os.WriteFile(path, []byte(tt.archive), 0o644); err != nil {
				t.Fatal(err)
			}
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			Check(t, path, ar, "want", "new\n", true)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("archive after -update:\n%s\nwant:\n%s", got, tt.want)
			}
			// Once written, the section matches.
			Check(t, path, ar, "want", "new\n", false)
		})
	}
}

func TestSection(t *testing.T) {
	ar := txtar.Parse([]byte("-- a --\n-- want --\n"))
	if got := Section(ar, "want"); got != 1 {
		t.Errorf("Section(want) = %d, want 1", got)
	}
	if got := Section(ar, "missing"); got != -1 {
		t.Errorf("Section(missing) = %d, want -1", got)
	}
}

func TestFiles(t *testing.T) {
	ar := txtar.Parse([]byte("-- main.tf --\nx\n-- m/main.tf --\ny\n-- want --\nz\n"))
	got := Files(ar, "want")
	want := map[string]string{"main.tf": "x\n", "m/main.tf": "y\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Files(ar, want) (-want +got):\n%s", diff)
	}
	if got := Files(ar); len(got) != 3 {
		t.Errorf("Files(ar) has %d sections, want 3", len(got))
	}
}
