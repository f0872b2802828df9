package parallel

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v after its wait, want nil", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// A wait far longer than any test: only the context can end it.
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep = %v with its context canceled, want context.Canceled", err)
	}
}
