package cloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Client calls the cloud's API at Endpoint, retrying a throttled call up
// to MaxRetries times, waiting a random time between zero and
// min(BackoffCap, BackoffBase × 2^retry) before each retry (exponential
// backoff with full jitter). Safe for concurrent use.
type Client struct {
	Endpoint    string
	HTTP        *http.Client
	MaxRetries  int
	BackoffBase time.Duration
	BackoffCap  time.Duration

	retries atomic.Int64
}

// Default retry settings.
const (
	DefaultMaxRetries  = 8
	DefaultBackoffBase = 100 * time.Millisecond
	DefaultBackoffCap  = 5 * time.Second
)

// NewClient returns a client of the cloud at endpoint with the default
// retry settings.
func NewClient(endpoint string) *Client {
	return &Client{
		Endpoint: strings.TrimSuffix(endpoint, "/"),
		HTTP: &http.Client{Transport: &http.Transport{
			MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 90 * time.Second,
		}},
		MaxRetries: DefaultMaxRetries, BackoffBase: DefaultBackoffBase, BackoffCap: DefaultBackoffCap,
	}
}

// Retries returns how many throttled calls the client has retried.
func (c *Client) Retries() int64 { return c.retries.Load() }

// APIError is an error answer of the API.
type APIError struct {
	// Op is the API operation (GetObject, …).
	Op         string
	StatusCode int
	Code       string // ThrottlingException, ResourceNotFoundException, …
	Message    string
	// Attempts is how many times the call was made.
	Attempts int
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s: %s: %s (HTTP %d)", e.Op, e.Code, e.Message, e.StatusCode)
	if e.Attempts > 1 {
		s += fmt.Sprintf(", given up after %d attempts", e.Attempts)
	}
	return s
}

// IsThrottling reports whether err is a throttling error the client gave up on.
func IsThrottling(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.StatusCode == http.StatusTooManyRequests
}

// IsNotFound reports whether err says the object does not exist.
func IsNotFound(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.StatusCode == http.StatusNotFound
}

// do calls op (method on path with body in) and decodes the answer into
// out, retrying throttled calls.
func (c *Client) do(ctx context.Context, op, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, c.Endpoint+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("%s: reading the answer: %w", op, err)
		}
		if resp.StatusCode < 300 {
			if out == nil || len(data) == 0 {
				return nil
			}
			return json.Unmarshal(data, out)
		}
		var ae apiError
		_ = json.Unmarshal(data, &ae)
		e := &APIError{Op: op, StatusCode: resp.StatusCode, Code: ae.Code, Message: ae.Message, Attempts: attempt}
		if resp.StatusCode != http.StatusTooManyRequests || attempt > c.MaxRetries {
			return e
		}
		c.retries.Add(1)
		backoff := min(c.BackoffCap, c.BackoffBase<<(attempt-1))
		if backoff <= 0 { // shifted out of range
			backoff = c.BackoffCap
		}
		t := time.NewTimer(time.Duration(rand.Int64N(int64(backoff) + 1)))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s: %w", op, ctx.Err())
		}
	}
}

// Create creates an object (its ID and revision are the cloud's).
func (c *Client) Create(ctx context.Context, o Object) (Object, error) {
	var out Object
	err := c.do(ctx, "CreateObject", http.MethodPost, "/v1/objects", o, &out)
	return out, err
}

// Get reads the object with ID id; IsNotFound(err) when there is none.
func (c *Client) Get(ctx context.Context, id string) (Object, error) {
	var out Object
	err := c.do(ctx, "GetObject", http.MethodGet, "/v1/objects/"+url.PathEscape(id), nil, &out)
	return out, err
}

// FindByName reads the latest object named name.
func (c *Client) FindByName(ctx context.Context, name string) (Object, error) {
	var out Object
	err := c.do(ctx, "FindObject", http.MethodGet, "/v1/objects?name="+url.QueryEscape(name), nil, &out)
	return out, err
}

// Update replaces the object o.ID's name, value and tags.
func (c *Client) Update(ctx context.Context, o Object) (Object, error) {
	var out Object
	err := c.do(ctx, "UpdateObject", http.MethodPut, "/v1/objects/"+url.PathEscape(o.ID), o, &out)
	return out, err
}

// Delete deletes the object with ID id.
func (c *Client) Delete(ctx context.Context, id string) error {
	return c.do(ctx, "DeleteObject", http.MethodDelete, "/v1/objects/"+url.PathEscape(id), nil, nil)
}

// Drift changes objects out of band.
func (c *Client) Drift(ctx context.Context, d Drift) (DriftResult, error) {
	var out DriftResult
	err := c.do(ctx, "Drift", http.MethodPost, "/v1/drift", d, &out)
	return out, err
}

// Report adds a provider process's counters to the cloud's.
func (c *Client) Report(ctx context.Context, r ProviderReport) error {
	return c.do(ctx, "Report", http.MethodPost, "/v1/reports", r, nil)
}

// Stats returns the cloud's counters.
func (c *Client) Stats(ctx context.Context) (Stats, error) {
	var out Stats
	err := c.do(ctx, "Stats", http.MethodGet, "/v1/stats", nil, &out)
	return out, err
}

// ResetStats sets the cloud's counters back to zero.
func (c *Client) ResetStats(ctx context.Context) error {
	return c.do(ctx, "ResetStats", http.MethodPost, "/v1/stats/reset", nil, nil)
}
