package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSuggestion(t *testing.T) {
	types := []string{"terraform_remote_state", "terraform_data"}
	tests := []struct {
		given      string
		candidates []string
		want       string
	}{
		{"terraform_dat", types, "terraform_data"},
		{"terrafrom_data", types, "terraform_data"},
		{"terraform_remote_stat", types, "terraform_remote_state"},
		{"aws_instance", types, ""},
		{"plna", []string{"plan", "apply"}, "plan"},
		{"ab", []string{"ac", "aa"}, "aa"}, // a tie goes to the first in sorted order
		{"ab", []string{"aa", "ac"}, "aa"},
		{"x", nil, ""},
	}
	for _, tt := range tests {
		if got := Suggestion(tt.given, tt.candidates); got != tt.want {
			t.Errorf("Suggestion(%q, %q) = %q, want %q", tt.given, tt.candidates, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	addrs := []string{"terraform_data.web[1]", "terraform_data.db", "terraform_data.web", "terraform_data.web[0]", "module.net"}
	got := Nearest("terraform_data.wbe", addrs, 5, 3)
	want := []string{"terraform_data.db", "terraform_data.web"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Nearest (-want +got):\n%s", diff)
	}
	if got := Nearest("terraform_data.web[5]", addrs, 5, 1); len(got) != 1 || got[0] != "terraform_data.web[0]" {
		t.Errorf("Nearest, at most one = %q", got)
	}
	if got := Nearest("zzz", addrs, 2, 3); got != nil {
		t.Errorf("Nearest of nothing near = %q", got)
	}
}
