package corelog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Settings
	}{
		{"nothing set", nil, Settings{Level: Off}},
		{"TF_LOG", map[string]string{"TF_LOG": "debug"}, Settings{Level: Debug}},
		{"TF_LOG_CORE when TF_LOG is unset", map[string]string{"TF_LOG_CORE": "WARN"}, Settings{Level: Warn}},
		{"TF_LOG wins over TF_LOG_CORE", map[string]string{"TF_LOG": "error", "TF_LOG_CORE": "trace"}, Settings{Level: Error}},
		{"TF_LOG_PROVIDER alone leaves the core log off", map[string]string{"TF_LOG_PROVIDER": "trace"}, Settings{Level: Off}},
		{"json", map[string]string{"TF_LOG": "json"}, Settings{Level: Trace, JSON: true}},
		{"off", map[string]string{"TF_LOG": "OFF"}, Settings{Level: Off}},
		{"invalid level is trace", map[string]string{"TF_LOG": "verbose"}, Settings{Level: Trace, Invalid: "VERBOSE"}},
		{"path", map[string]string{"TF_LOG": "info", "TF_LOG_PATH": "/tmp/rig.log"}, Settings{Level: Info, Path: "/tmp/rig.log"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromEnv(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FromEnv (-want +got):\n%s", diff)
			}
		})
	}
}

var textLine = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[Z+-]\d*\s\[(TRACE|DEBUG|INFO|WARN|ERROR)\]\s+(.*)$`)

func TestLevelsAndTextFormat(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(Settings{Level: Info}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	l.Trace("not recorded")
	l.Debug("not recorded either")
	l.Info("rig version", String("version", "0.1.0"))
	l.Warn("slow", Duration("elapsed", 1500*time.Millisecond), Int("nodes", 3))
	l.Error("failed", Bool("retry", false))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		m := textLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not in Terraform's log format", line)
		}
		got = append(got, m[1]+" "+m[2])
	}
	want := []string{
		"INFO rig version: version=0.1.0",
		"WARN slow: elapsed=1.5s nodes=3",
		"ERROR failed: retry=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	if l.Enabled(Debug) || !l.Enabled(Info) {
		t.Errorf("Enabled disagrees with the level")
	}
}

func TestJSONFormat(t *testing.T) {
	var buf bytes.Buffer
	l, _ := New(Settings{Level: Trace, JSON: true}, &buf)
	l.Trace("walk", Strings("args", []string{"plan", "-input=false"}))
	var entry map[string]any
	if err := json.Unmarshal(buf.Bytes(), &entry); err != nil {
		t.Fatalf("not a JSON line: %q: %v", buf.String(), err)
	}
	if entry["@level"] != "trace" || entry["@message"] != "walk" || entry["@timestamp"] == nil {
		t.Errorf("entry = %v", entry)
	}
	if diff := cmp.Diff([]any{"plan", "-input=false"}, entry["args"]); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
}

func TestNilLoggerRecordsNothing(t *testing.T) {
	l, err := New(Settings{Level: Off}, nil)
	if l != nil || err != nil {
		t.Fatalf("New(Off) = %v, %v; want nil, nil", l, err)
	}
	l.Info("ignored")
	if l.Enabled(Error) {
		t.Errorf("a nil logger is enabled")
	}
	if err := l.Close(); err != nil {
		t.Error(err)
	}
}

// Two loggers appending to one file, as rig's core log and its provider
// plugins' logs do, never mix their lines.
func TestFileIsAppendedConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rig.log")
	if err := os.WriteFile(path, []byte("earlier line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	const writers, entries = 4, 200
	for w := range writers {
		l, err := New(Settings{Level: Debug, Path: path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.Close()
			for i := range entries {
				l.Debug("entry", Int("writer", w), Int("i", i), String("padding", strings.Repeat("x", 200)))
			}
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "earlier line" {
		t.Errorf("the file was not appended to: first line %q", lines[0])
	}
	if len(lines) != 1+writers*entries {
		t.Fatalf("%d lines, want %d", len(lines), 1+writers*entries)
	}
	for _, line := range lines[1:] {
		if !textLine.MatchString(line) || !strings.HasSuffix(line, strings.Repeat("x", 200)) {
			t.Fatalf("mixed or broken line %q", line)
		}
	}
}

func TestFileCreatedPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rig.log")
	l, err := New(Settings{Level: Info, Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Info("x")
	l.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestUnopenableFileFallsBackToStderr(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(Settings{Level: Info, Path: filepath.Join(t.TempDir(), "missing", "rig.log")}, &buf)
	if err == nil || !strings.Contains(err.Error(), "opening log file") {
		t.Fatalf("err = %v", err)
	}
	l.Info("still logged")
	if !strings.Contains(buf.String(), "still logged") {
		t.Errorf("stderr = %q", buf.String())
	}
}
