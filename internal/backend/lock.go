package backend

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/version"
)

// LockInfo describes who holds a state lock and why. Its JSON form is
// exactly what Terraform and OpenTofu write to .terraform.tfstate.lock.info
// (the field names as keys, Created in RFC 3339 with nanoseconds), so each
// can report the other's locks.
type LockInfo struct {
	// ID identifies the lock; Unlock must be given it.
	ID string
	// Operation is what the holder is doing, as Terraform names it:
	// "OperationTypePlan", "OperationTypeApply", "OperationTypeInvalid"…
	Operation string
	// Info is free-form extra text.
	Info string
	// Who is user@host of the holder.
	Who string
	// Version is the version of the program holding the lock.
	Version string
	// Created is when the lock was taken, in UTC.
	Created time.Time
	// Path is the locked state's path or name; the Store fills it in.
	Path string
}

// NewLockInfo returns the LockInfo for an operation of this process: a new
// random ID, Who (user@host), Version (rig's version, version.Rig) and
// Created (now). Callers may set Info.
func NewLockInfo(operation string) LockInfo {
	return LockInfo{
		ID:        newUUID(),
		Operation: operation,
		Who:       who(),
		Version:   version.Rig,
		Created:   time.Now().UTC(),
	}
}

// String renders the lock as Terraform's "Lock Info" block.
func (l *LockInfo) String() string {
	return fmt.Sprintf("Lock Info:\n  ID:        %s\n  Path:      %s\n  Operation: %s\n  Who:       %s\n  Version:   %s\n  Created:   %s\n  Info:      %s\n",
		l.ID, l.Path, l.Operation, l.Who, l.Version, l.Created, l.Info)
}

// LockError reports that a lock is held by someone else. Info is the
// holder's lock, nil when it could not be read; Err says what went wrong,
// usually ErrLocked.
type LockError struct {
	Info *LockInfo
	Err  error
}

// Error reads like Terraform's "Error acquiring the state lock" detail: the
// cause, then the holder's Lock Info block.
func (e *LockError) Error() string {
	msg := "acquiring the state lock"
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	if e.Info != nil {
		msg += "\n" + strings.TrimSuffix(e.Info.String(), "\n")
	}
	return msg
}

// Unwrap returns Err.
func (e *LockError) Unwrap() error { return e.Err }

// LockWithTimeout takes the store's lock, retrying while it is held by
// someone else (a *LockError) until timeout has passed, with waits that
// start at 50ms and double up to 1s. A timeout of 0 or less tries once.
// It returns the last *LockError when the time runs out, any other error at
// once, and, if ctx ends first, ctx's error joined with the last LockError.
func LockWithTimeout(ctx context.Context, s Store, info LockInfo, timeout time.Duration) (string, error) {
	return lockWithTimeout(ctx, s, info, timeout, systemClock{})
}

// lockWithTimeout is LockWithTimeout reading the time from, and waiting
// on, clock.
func lockWithTimeout(ctx context.Context, s Store, info LockInfo, timeout time.Duration, clock lockClock) (string, error) {
	id, err := s.Lock(ctx, info)
	var lerr *LockError
	if err == nil || timeout <= 0 || !errors.As(err, &lerr) {
		return id, err
	}
	deadline := clock.Now().Add(timeout)
	delay := 50 * time.Millisecond
	for {
		wait := min(delay, deadline.Sub(clock.Now()))
		if wait <= 0 {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", errors.Join(ctx.Err(), err)
		case <-clock.After(wait):
		}
		id, err = s.Lock(ctx, info)
		if err == nil || !errors.As(err, &lerr) {
			return id, err
		}
		delay = min(2*delay, time.Second)
	}
}

// A lockClock is what lockWithTimeout reads the time from and waits on:
// the system's clock, or a test's.
type lockClock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// systemClock is the lockClock of the system's time and timers.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// newUUID returns a random (version 4) UUID string.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// who returns user@host as Terraform records it; either part may be empty.
func who() string {
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}
