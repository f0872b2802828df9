package diag

import "testing"

func TestSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no such host", "No such host."},
		{"Already upper", "Already upper."},
		{"", "."},
	}
	for _, tt := range tests {
		if got := Sentence(tt.in); got != tt.want {
			t.Errorf("Sentence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
