package main

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"
)

// logger writes the provider's log as the plugin SDKs do: JSON lines on the
// process's own stderr (captured before go-plugin redirects os.Stderr), at
// the level TF_LOG_PROVIDER_TEST names, TRACE when it is unset. Every call
// is logged at TRACE.
var logger = newLogger()

func newLogger() hclog.Logger {
	level := hclog.LevelFromString(os.Getenv("TF_LOG_PROVIDER_TEST"))
	if level == hclog.NoLevel {
		level = hclog.Trace
	}
	return hclog.New(&hclog.LoggerOptions{Name: "testprovider", Output: os.Stderr, JSONFormat: true, Level: level})
}

// remoteCalls are the calls that would reach a cloud API in a real
// provider: RIG_TESTPROVIDER_CALL_DELAY makes each of them take that long.
var remoteCalls = map[string]bool{
	"ReadResource": true, "PlanResourceChange": true, "ApplyResourceChange": true,
	"ReadDataSource": true, "ImportResourceState": true,
}

// callDelay is RIG_TESTPROVIDER_CALL_DELAY (a Go duration such as "50ms"); 0
// when unset or invalid.
func callDelay() time.Duration {
	d, err := time.ParseDuration(os.Getenv("RIG_TESTPROVIDER_CALL_DELAY"))
	if err != nil {
		return 0
	}
	return d
}

// serverOptions logs every call and delays the remote ones.
func serverOptions() []grpc.ServerOption {
	delay := callDelay()
	return []grpc.ServerOption{grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		method := info.FullMethod[strings.LastIndexByte(info.FullMethod, '/')+1:]
		logger.Trace("call " + method)
		if delay > 0 && remoteCalls[method] {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			}
		}
		return handler(ctx, req)
	})}
}
