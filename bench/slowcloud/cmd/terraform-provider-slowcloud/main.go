// Command terraform-provider-slowcloud is slowcloud's provider plugin. It
// serves protocol 6 to OpenTofu, Terraform or rig, and at exit reports the
// calls it received by RPC, the throttled calls it retried and the
// throttling errors it gave up on: to the cloud (added to its stats) and,
// when SLOWCLOUD_COUNTS names a file, as one JSON line appended to it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/rig-iac/rig/bench/slowcloud/provider"
)

// address is the provider's source address; its host is the one a
// filesystem mirror holds it under (see the bench README).
const address = "registry.terraform.io/rig-iac/slowcloud"

func main() {
	p := provider.New()
	err := tf6server.Serve(address, func() tfprotov6.ProviderServer { return p })
	report(p)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// report writes p's counters where the command's doc says.
func report(p *provider.Provider) {
	r := p.Report()
	if c := p.Client(); c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.Report(ctx, r); err != nil {
			fmt.Fprintln(os.Stderr, "slowcloud: reporting counters:", err)
		}
	}
	path := os.Getenv("SLOWCLOUD_COUNTS")
	if path == "" {
		return
	}
	line, err := json.Marshal(r)
	if err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "slowcloud:", err)
		return
	}
	defer f.Close()
	// One write of one line: lines of processes exiting at once do not mix.
	_, _ = f.Write(append(line, '\n'))
}
