package getproviders

import (
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
