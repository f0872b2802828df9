package getproviders

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// TestFindExecutable: the names provider packages give their executable
// on every platform, Windows's ".exe" included, and what is not one.
func TestFindExecutable(t *testing.T) {
	p := addrs.NewDefaultProvider("x")
	tests := []struct {
		name  string
		files []string // a name ending in "/" is a directory
		want  string   // "" for none
	}{
		{"bare", []string{"terraform-provider-x"}, "terraform-provider-x"},
		{"versioned", []string{"LICENSE", "terraform-provider-x_v1.2.3"}, "terraform-provider-x_v1.2.3"},
		{"protocol suffix", []string{"terraform-provider-x_v1.2.3_x5"}, "terraform-provider-x_v1.2.3_x5"},
		{"windows", []string{"terraform-provider-x.exe"}, "terraform-provider-x.exe"},
		{"windows versioned", []string{"README.md", "terraform-provider-x_v1.2.3.exe"}, "terraform-provider-x_v1.2.3.exe"},
		{"another type's", []string{"terraform-provider-xy", "terraform-provider-xy.exe"}, ""},
		{"a directory", []string{"terraform-provider-x_v1/"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				path := filepath.Join(dir, f)
				var err error
				if f[len(f)-1] == '/' {
					err = os.Mkdir(path, 0o755)
				} else {
					err = os.WriteFile(path, []byte("binary"), 0o755)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got, ok := FindExecutable(dir, p)
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, tt.want)
			}
			if got != want || ok != (tt.want != "") {
				t.Errorf("FindExecutable = %q, %v; want %q", got, ok, want)
			}
		})
	}
}
