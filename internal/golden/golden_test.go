package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name       string
		file       *string // the golden file's content; nil: no file
		got        string
		wantErrors []string // what each error says, in part
		wantFatals []string
	}{
		{"same", ptr("line 1\nline 2\n"), "line 1\nline 2\n", nil, nil},
		{"differs", ptr("line 1\nline 2\n"), "line 1\nline two\n", []string{"out.golden differs from the output (-want +got; go test -update rewrites it)", "line two"}, nil},
		{"missing", nil, "x\n", nil, []string{"reading golden file", "go test -update writes it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.golden")
			if tt.file != nil {
				if err := os.WriteFile(path, []byte(*tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := &recorder{}
			Check(r, path, tt.got)
			checkReports(t, "errors", r.errors, tt.wantErrors)
			checkReports(t, "fatal errors", r.fatals, tt.wantFatals)
		})
	}
}

// checkReports checks that there is one report if wants are given, none
// otherwise, and that it says each of wants.
func checkReports(t *testing.T, what string, got, wants []string) {
	t.Helper()
	if len(got) != min(len(wants), 1) {
		t.Fatalf("%s %q, want %d", what, got, min(len(wants), 1))
	}
	for _, want := range wants {
		if !strings.Contains(got[0], want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got[0])
		}
	}
}

func ptr(s string) *string { return &s }

// With -update, Check writes the golden file, in a directory it makes if
// need be, and the next check without it passes.
func TestCheckUpdate(t *testing.T) {
	defer func(was bool) { *Update = was }(*Update)
	dir := t.TempDir()
	for _, tt := range []struct {
		name, path, before, got string
	}{
		{"new file in a new directory", filepath.Join(dir, "sub", "new.golden"), "", "new\n"},
		{"file rewritten", filepath.Join(dir, "old.golden"), "old\n", "new\n"},
		{"file unchanged", filepath.Join(dir, "same.golden"), "same\n", "same\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != "" {
				if err := os.WriteFile(tt.path, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			*Update = true
			r := &recorder{}
			Check(r, tt.path, []byte(tt.got))
			if len(r.errors)+len(r.fatals) > 0 {
				t.Fatalf("-update reported %q %q", r.errors, r.fatals)
			}
			data, err := os.ReadFile(tt.path)
			if err != nil || string(data) != tt.got {
				t.Fatalf("golden file after -update: %q, %v; want %q", data, err, tt.got)
			}
			*Update = false
			Check(r, tt.path, tt.got)
			if len(r.errors)+len(r.fatals) > 0 {
				t.Errorf("the check after -update reported %q %q", r.errors, r.fatals)
			}
		})
	}
}

// The -update flag is looked up before it is defined: where a package
// initialized before this one defined it, defining it again would panic;
// instead its value follows that flag, "-update" alone included.
func TestUpdateFlagDefinedElsewhere(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want bool
	}{
		{"not given", nil, false},
		{"alone", []string{"-update"}, true},
		{"with a value", []string{"-update=true"}, true},
		{"turned off", []string{"-update=false"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			theirs := fs.Bool("update", false, "their own")
			ours := updateFlag(fs) // panicked with "flag redefined: update"
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if *ours != tt.want || *theirs != tt.want {
				t.Errorf("golden's -update is %v and theirs %v, want both %v", *ours, *theirs, tt.want)
			}
		})
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	ours := updateFlag(fs)
	if err := fs.Parse([]string{"-update"}); err != nil || !*ours {
		t.Errorf("defined here: -update gives %v (%v)", *ours, err)
	}
}
