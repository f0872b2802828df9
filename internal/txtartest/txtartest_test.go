package txtartest

import (
	"os"
	"path/filepath"
	"testing"

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
