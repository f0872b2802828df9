package s3test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 is an S3-compatible server on loopback, holding its objects in memory.
type S3 struct {
	// URL is the endpoint, for endpoints.s3 with use_path_style.
	URL     string
	backend *s3mem.Backend
	// puts counts PutObject requests (conditional or not).
	puts atomic.Int64
	// failPuts makes that many next PUT requests fail with 500.
	failPuts atomic.Int64
	mu       sync.Mutex
	headers  []http.Header // of PUT requests, when recording
	record   bool
	keys     []string // the access keys that signed requests
}

// NewS3 starts a server with the given buckets, stopped when the test
// ends.
func NewS3(t testing.TB, buckets ...string) *S3 {
	t.Helper()
	s := &S3{backend: s3mem.New()}
	for _, b := range buckets {
		if err := s.backend.CreateBucket(b); err != nil {
			t.Fatalf("creating bucket %s: %v", b, err)
		}
	}
	fake := gofakes3.New(s.backend, gofakes3.WithIntegrityCheck(true))
	inner := fake.Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.keys = append(s.keys, AccessKey(r.Header))
		s.mu.Unlock()
		if r.Method == http.MethodPut {
			s.puts.Add(1)
			s.mu.Lock()
			if s.record {
				s.headers = append(s.headers, r.Header.Clone())
			}
			s.mu.Unlock()
			if s.failPuts.Load() > 0 {
				s.failPuts.Add(-1)
				http.Error(w, "<Error><Code>InternalError</Code><Message>injected failure</Message></Error>", http.StatusInternalServerError)
				return
			}
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Object returns an object's content, or ok false when it does not exist.
func (s *S3) Object(bucket, key string) (data []byte, ok bool) {
	obj, err := s.backend.GetObject(bucket, key, nil)
	if err != nil {
		return nil, false
	}
	defer obj.Contents.Close()
	data, err = io.ReadAll(obj.Contents)
	return data, err == nil
}

// PutObject stores an object directly, as another tool would.
func (s *S3) PutObject(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	if _, err := s.backend.PutObject(bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatalf("putting %s/%s: %v", bucket, key, err)
	}
}

// Keys lists the keys of a bucket's objects.
func (s *S3) Keys(t testing.TB, bucket string) []string {
	t.Helper()
	list, err := s.backend.ListBucket(bucket, &gofakes3.Prefix{}, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatalf("listing %s: %v", bucket, err)
	}
	var keys []string
	for _, c := range list.Contents {
		keys = append(keys, c.Key)
	}
	return keys
}

// Puts returns the number of PUT requests served so far.
func (s *S3) Puts() int64 { return s.puts.Load() }

// FailPuts makes the next n PUT requests fail with a server error.
func (s *S3) FailPuts(n int64) { s.failPuts.Store(n) }

// RecordHeaders starts recording the headers of PUT requests; Headers
// returns those recorded.
func (s *S3) RecordHeaders() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record = true
}

// Headers returns the headers of the PUT requests recorded.
func (s *S3) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

// AccessKeys returns the access key IDs that signed the requests served so
// far, in order.
func (s *S3) AccessKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}
