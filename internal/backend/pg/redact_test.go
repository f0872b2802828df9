package pg

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestConnectionErrorsHidePassword connects with connection strings whose
// password the driver may misread (an unescaped "@") or that cannot be
// parsed, to servers that do not answer, and checks that no part of the
// password appears in the error.
func TestConnectionErrorsHidePassword(t *testing.T) {
	tests := []struct {
		name    string
		connStr string
		want    string // a substring of the error
	}{
		{"URL, unescaped @, no such host", "postgres://rig:Sup3r@Secret@nohost.invalid:5432/db", "connecting to xxxxx@nohost.invalid:5432/db"},
		{"URL, unescaped @, refused", "postgres://rig:Sup3r@Secret@127.0.0.1:1/db", "pg backend: connecting to"},
		{"URL, two unescaped @", "postgres://rig:Sup3r@Sec@ret@127.0.0.1:1/db", "pg backend: connecting to"},
		{"URL, escaped @, refused", "postgres://rig:Sup3r%40Secret@127.0.0.1:1/db", "connection refused"},
		{"URL, unescaped @, bad port", "postgres://rig:Sup3r@Secret@127.0.0.1:notaport/db", "parsing conn_str"},
		{"URL, unescaped @, bad sslmode", "postgres://rig:Sup3r@Secret@127.0.0.1:1/db?sslmode=bogus", "sslmode is invalid"},
		{"URL, bad escape", "postgres://rig:Sup3r%zzSecret@127.0.0.1:1/db", "parsing conn_str"},
		{"keyword/value, refused", "host=127.0.0.1 port=1 user=rig password=Sup3r@Secret dbname=db", "connection refused"},
		{"keyword/value, quoted, bad port", "host=127.0.0.1 port=x user=rig password='Sup3r@Secret' dbname=db", "invalid port"},
		{"keyword/value, unterminated quote", "host=127.0.0.1 port=1 user=rig password='Sup3r@Secret dbname=db", "parsing conn_str"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := New(ctx, Config{ConnStr: tt.connStr})
			if err == nil {
				t.Fatal("New succeeded")
			}
			msg := err.Error()
			for _, part := range []string{"Sup3r", "Secret", "Sec@", "ret@"} {
				if strings.Contains(msg, part) {
					t.Errorf("the error shows %q of the password:\n%s", part, msg)
				}
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("the error lacks %q:\n%s", tt.want, msg)
			}
		})
	}
}
