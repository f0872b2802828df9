package getproviders

import "testing"

func TestParseHost(t *testing.T) {
	for _, tc := range []struct {
		arg, want string
		ok        bool
	}{
		{"app.terraform.io", "app.terraform.io", true},
		{"Example.COM", "example.com", true},
		{"example.com:8443", "example.com:8443", true},
		{"example.com:443", "example.com", true},
		{"", "", false},
		{"https://example.com", "", false},
		{"user@example.com", "", false},
		{"example.com/path", "", false},
		{"example.com:", "", false},
		{":8443", "", false},
		{"example.com:84a3", "", false},
		{"example.com:1:2", "", false},
		{"exa mple.com", "", false},
	} {
		got, ok := ParseHost(tc.arg)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseHost(%q) = %q, %v; want %q, %v", tc.arg, got, ok, tc.want, tc.ok)
		}
	}
}
