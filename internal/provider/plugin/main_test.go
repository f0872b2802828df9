package plugin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// testProviderBin is the test provider (testdata/testprovider), built once
// by TestMain.
var testProviderBin string

var testAddr = addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "rig", Type: "test"}

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "rig-plugin-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	defer CleanupClients()
	testProviderBin = filepath.Join(dir, "terraform-provider-test")
	cmd := exec.Command("go", "build", "-o", testProviderBin, "./testdata/testprovider")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test provider: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// startTest starts the test provider offering protocol version ("5", "6",
// or "" for both) and closes it when the test ends.
func startTest(t testing.TB, version string) *Provider {
	t.Helper()
	t.Setenv("RIG_TESTPROVIDER_PROTOCOL", version)
	p, err := Start(Meta{Path: testProviderBin, Provider: testAddr, Version: "0.0.1"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// forEachProtocol runs f against the test provider over protocols 5 and 6.
func forEachProtocol(t *testing.T, f func(t *testing.T, p *Provider)) {
	for _, v := range []string{"5", "6"} {
		t.Run("protocol"+v, func(t *testing.T) {
			f(t, startTest(t, v))
		})
	}
}
