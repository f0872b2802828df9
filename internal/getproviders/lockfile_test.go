package getproviders

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

func TestLocksSameProviders(t *testing.T) {
	locks := func(entries ...string) *Locks {
		l := NewLocks()
		for i := 0; i < len(entries); i += 2 {
			v, err := ParseVersion(entries[i+1])
			if err != nil {
				t.Fatal(err)
			}
			l.Set(&Lock{Provider: addrs.NewDefaultProvider(entries[i]), Version: v})
		}
		return l
	}
	tests := []struct {
		name string
		a, b *Locks
		want bool
	}{
		{"both empty", locks(), locks(), true},
		{"same versions", locks("null", "3.2.4"), locks("null", "3.2.4"), true},
		{"another version", locks("null", "3.2.4"), locks("null", "3.2.5"), true},
		{"a provider more", locks("null", "3.2.4"), locks("null", "3.2.4", "local", "2.5.2"), false},
		{"another provider", locks("null", "3.2.4"), locks("local", "3.2.4"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.SameProviders(tt.b); got != tt.want {
				t.Errorf("SameProviders = %v, want %v", got, tt.want)
			}
			if got := tt.b.SameProviders(tt.a); got != tt.want {
				t.Errorf("SameProviders reversed = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLockFileKeepsHeader: a lock file another tool wrote keeps its
// header when rewritten; one without the usual header gets rig's.
func TestLockFileKeepsHeader(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"terraform's", "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n", "terraform init"},
		{"opentofu's", "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n", "tofu init"},
		{"hand-written", "# my providers\n", "rig init"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src + "\nprovider \"registry.terraform.io/hashicorp/random\" {\n  version = \"3.6.0\"\n}\n"
			locks, ds := ParseLockFile([]byte(src), ".terraform.lock.hcl")
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			out := string(locks.Marshal())
			if first := strings.SplitN(out, "\n", 2)[0]; first != `# This file is maintained automatically by "`+tc.want+`".` {
				t.Errorf("first line %q, want the header naming %q", first, tc.want)
			}
			if tc.want != "rig init" && out != src {
				t.Errorf("rewritten:\n%s\nwant it unchanged:\n%s", out, src)
			}
		})
	}
}
