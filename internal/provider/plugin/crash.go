package plugin

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxCrashLines bounds the lines of a plugin's panic output kept: the
// first lines of a stack trace are what tells where it crashed.
const maxCrashLines = 100

// Crash is what a provider process wrote to its standard error from a Go
// panic (or fatal error) on: the message and the stack trace.
type Crash struct {
	// Plugin is the name of the provider's executable
	// ("terraform-provider-random_v3.6.0_x5"), as Terraform names it.
	Plugin string
	// Lines are the panic output, at most maxCrashLines of them.
	Lines []string
}

// Text is the panic output as the plugin wrote it.
func (c Crash) Text() string { return strings.Join(c.Lines, "\n") }

// crashes holds the crashes of the provider processes started since the
// last TakeCrashes, by plugin name (several processes of one provider
// share it, as in Terraform: the last one's crash is kept).
var crashes struct {
	mu     sync.Mutex
	byName map[string][]string
}

// TakeCrashes returns the crashes recorded since the last call, sorted by
// plugin name, and forgets them. Terraform shows them when it exits with
// an error; so does rig.
func TakeCrashes() []Crash {
	crashes.mu.Lock()
	defer crashes.mu.Unlock()
	var out []Crash
	for name, lines := range crashes.byName {
		out = append(out, Crash{Plugin: name, Lines: lines})
	}
	crashes.byName = nil
	slices.SortFunc(out, func(a, b Crash) int { return strings.Compare(a.Plugin, b.Plugin) })
	return out
}

// crashOf returns the crash recorded for the plugin meta names, if any.
func crashOf(meta Meta) (Crash, bool) {
	name := crashName(meta)
	crashes.mu.Lock()
	defer crashes.mu.Unlock()
	lines, ok := crashes.byName[name]
	return Crash{Plugin: name, Lines: slices.Clone(lines)}, ok && len(lines) > 0
}

// crashName is the name a provider's crash is shown under: its
// executable's file name.
func crashName(meta Meta) string {
	if meta.Path == "" {
		return "terraform-provider-" + meta.Provider.Type
	}
	return filepath.Base(meta.Path)
}

// crashOutput returns the writer a provider process's standard error is
// copied to (go-plugin's ClientConfig.Stderr): it records the lines from
// the first one starting "panic: " or "fatal error: " on, as the crash of
// the plugin meta names. Everything else the process writes is left to the
// plugin's logger.
func crashOutput(meta Meta) io.Writer {
	return &crashWriter{name: crashName(meta)}
}

// crashWriter splits what it is given into lines; go-plugin writes a line
// and its newline separately, from one goroutine.
type crashWriter struct {
	name    string
	partial []byte
	inPanic bool
	lines   int
}

func (w *crashWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		w.line(string(append(w.partial, p[:i]...)))
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (w *crashWriter) line(s string) {
	if !w.inPanic {
		if !strings.HasPrefix(s, "panic: ") && !strings.HasPrefix(s, "fatal error: ") {
			return
		}
		w.inPanic = true
		crashes.mu.Lock()
		if crashes.byName == nil {
			crashes.byName = map[string][]string{}
		}
		crashes.byName[w.name] = nil
		crashes.mu.Unlock()
	}
	if w.lines >= maxCrashLines {
		return
	}
	w.lines++
	crashes.mu.Lock()
	crashes.byName[w.name] = append(crashes.byName[w.name], s)
	crashes.mu.Unlock()
}

// awaitExit waits up to limit for the provider's process to end, which
// go-plugin marks only once it has read all the process wrote to its
// standard error; it reports whether the process ended.
func (p *Provider) awaitExit(limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for !p.client.Exited() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// crashMessage is the message of a crash's panic, for a diagnostic: its
// lines up to the first blank one (the stack trace is shown apart).
func crashMessage(c Crash) string {
	var msg []string
	for _, l := range c.Lines {
		if strings.TrimSpace(l) == "" || len(msg) == 5 {
			break
		}
		msg = append(msg, l)
	}
	return strings.Join(msg, "\n")
}
