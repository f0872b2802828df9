// Command slowcloud runs the cloud slowcloud's provider talks to, and
// talks to a running one:
//
//	slowcloud serve [-addr 127.0.0.1:0] [-latency 100ms] [-jitter 20ms] [-rate 200] [-burst N]
//	                [-throttle-delay D] [-data FILE] [-stats FILE]
//	slowcloud stats [-reset] [-endpoint URL]
//	slowcloud drift [-endpoint URL] CHANGED[,deleted=F][,seed=N]
//
// serve listens on loopback and prints SLOWCLOUD_ENDPOINT=URL on its first
// line of output; it runs until interrupted (SIGINT or SIGTERM), then
// writes its objects to the -data file (read at start, when it exists) and
// its counters to the -stats file. SLOWCLOUD_DRIFT, if set, drifts the
// objects read from -data once they are loaded. The other commands find the
// cloud at -endpoint, else SLOWCLOUD_ENDPOINT.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rig-iac/rig/bench/slowcloud/cloud"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: slowcloud serve|stats|drift [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "stats":
		err = stats(os.Args[2:])
	case "drift":
		err = drift(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want serve, stats or drift", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "slowcloud:", err)
		os.Exit(1)
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback `address` to listen on")
	var cfg cloud.Config
	fs.DurationVar(&cfg.Latency, "latency", 100*time.Millisecond, "how long every API call takes")
	fs.DurationVar(&cfg.Jitter, "jitter", 20*time.Millisecond, "the latency varies by up to this much, uniformly")
	fs.Float64Var(&cfg.Rate, "rate", 200, "API calls admitted per second, all clients together (0: no limit)")
	fs.IntVar(&cfg.Burst, "burst", 0, "calls admitted at once after a quiet time (default rate/10)")
	fs.DurationVar(&cfg.ThrottleDelay, "throttle-delay", 0, "how long a throttled call takes before its error (default latency/2)")
	data := fs.String("data", "", "`file` the objects are read from at start and written to at exit")
	statsFile := fs.String("stats", "", "`file` the counters are written to at exit")
	_ = fs.Parse(args)

	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %s: slowcloud listens on loopback only", *addr)
	}
	srv := cloud.NewServer(cfg)
	if *data != "" {
		if err := srv.Load(*data); err != nil {
			return err
		}
	}
	if text := os.Getenv("SLOWCLOUD_DRIFT"); text != "" {
		d, err := cloud.ParseDrift(text)
		if err != nil {
			return err
		}
		res := srv.Drift(d)
		fmt.Fprintf(os.Stderr, "slowcloud: drift %s changed %d objects, deleted %d\n", text, res.Changed, res.Deleted)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Printf("SLOWCLOUD_ENDPOINT=http://%s\n", ln.Addr())
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(shutdown)
	var errs []error
	if *data != "" {
		errs = append(errs, srv.Save(*data))
	}
	if *statsFile != "" {
		b, err := json.MarshalIndent(srv.Stats(), "", "  ")
		if err == nil {
			err = os.WriteFile(*statsFile, append(b, '\n'), 0o644)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func client(fs *flag.FlagSet, args []string) (*cloud.Client, error) {
	endpoint := fs.String("endpoint", os.Getenv("SLOWCLOUD_ENDPOINT"), "the cloud's `URL`")
	_ = fs.Parse(args)
	if *endpoint == "" {
		return nil, errors.New("no endpoint: set -endpoint or SLOWCLOUD_ENDPOINT")
	}
	return cloud.NewClient(*endpoint), nil
}

func stats(args []string) error {
	fs := flag.NewFlagSet("stats", flag.ExitOnError)
	reset := fs.Bool("reset", false, "set the counters back to zero after printing them")
	c, err := client(fs, args)
	if err != nil {
		return err
	}
	st, err := c.Stats(context.Background())
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	if *reset {
		return c.ResetStats(context.Background())
	}
	return nil
}

func drift(args []string) error {
	fs := flag.NewFlagSet("drift", flag.ExitOnError)
	c, err := client(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: slowcloud drift [-endpoint URL] CHANGED[,deleted=F][,seed=N]")
	}
	d, err := cloud.ParseDrift(fs.Arg(0))
	if err != nil {
		return err
	}
	d.Key = "" // asked for by hand: always drift
	res, err := c.Drift(context.Background(), d)
	if err != nil {
		return err
	}
	fmt.Printf("changed %d, deleted %d\n", res.Changed, res.Deleted)
	return nil
}
