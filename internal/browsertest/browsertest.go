// Package browsertest runs a headless Chromium for the tests of the pages
// rig writes (the graph page, the apply timeline): it starts the browser
// with a fresh profile and no network services, opens a page file, and
// gathers what the page reported as errors.
//
// Tests skip when Chromium is not installed, unless RIG_TEST_CHROMIUM=1,
// when a missing Chromium fails them.
//
// It imports no rig package.
package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// executables are the names Chromium is installed under, in the order tried.
var executables = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Browser is a headless Chromium with one tab, owned by one test.
type Browser struct {
	// Ctx is the tab's chromedp context; it ends with the test.
	Ctx context.Context

	mu sync.Mutex // guards errs
	// errs are the console errors, uncaught exceptions and error log
	// entries of the pages opened, in order.
	errs []string
}

// Start launches Chromium for t, which it stops when t ends, with a
// window of width × height CSS pixels. It skips t when Chromium is not
// installed and RIG_TEST_CHROMIUM is not "1".
func Start(t testing.TB, width, height int) *Browser {
	t.Helper()
	path := ""
	for _, name := range executables {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("RIG_TEST_CHROMIUM") == "1" {
			t.Fatalf("RIG_TEST_CHROMIUM=1 but no Chromium found (looked for %s)", strings.Join(executables, ", "))
		}
		t.Skip("Chromium is not installed (install Debian's chromium, or set RIG_TEST_CHROMIUM=1 to make this a failure)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	b := &Browser{Ctx: ctx}
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	// The first action starts the browser; its events are listened to from then on.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	if err := chromedp.Listen(ctx, b.event); err != nil {
		t.Fatalf("listen to Chromium's console: %v", err)
	}
	return b
}

// event records the events that report a problem with a page.
func (b *Browser) event(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = fmt.Sprintf("uncaught exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, d.Text)
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		msg = "log (" + string(ev.Entry.Source) + "): " + ev.Entry.Text
	default:
		return
	}
	b.mu.Lock()
	b.errs = append(b.errs, msg)
	b.mu.Unlock()
}

// Errors returns the problems the pages reported so far: console errors,
// uncaught exceptions and error entries of the browser's log.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// Open loads the page file at path and waits until the element sel
// exists, at most timeout. It returns how long that took.
func (b *Browser) Open(t testing.TB, path, sel string, timeout time.Duration) time.Duration {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	u := url.URL{Scheme: "file", Path: abs}
	ctx, cancel := context.WithTimeout(b.Ctx, timeout)
	defer cancel()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String()), chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		t.Fatalf("open %s and wait for %s: %v (page errors: %q)", path, sel, err, b.Errors())
	}
	return time.Since(start)
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value into a T, failing t on an error.
func Eval[T any](t testing.TB, b *Browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// Do runs chromedp actions in the tab, failing t on an error.
func Do(t testing.TB, b *Browser, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Screenshot returns a PNG of the whole window.
func Screenshot(t testing.TB, b *Browser) []byte {
	t.Helper()
	png, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return png
}
