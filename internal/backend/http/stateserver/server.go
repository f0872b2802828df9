package stateserver

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Options configure a Server.
type Options struct {
	// Username and Password, when Username is set, are the basic
	// authentication every request must carry (401 otherwise).
	Username, Password string
	// TLS serves HTTPS with a certificate for 127.0.0.1 signed by the
	// Server's CA, and requires a client certificate signed by it.
	TLS bool
}

// Request is what the server records of a request.
type Request struct {
	Method, Path, Query string
	// Header holds the request's headers, Authorization included.
	Header http.Header
	Body   []byte
	// Status is the status the server answered.
	Status int
}

// Server is a running state server. Its methods are safe for concurrent
// use; mu guards every field below it.
type Server struct {
	// URL is the server's base URL (http://127.0.0.1:PORT or https://…).
	URL string
	// CA is the PEM certificate of the CA that signed the server's and the
	// client's certificates (TLS only), ClientCert and ClientKey the
	// client's certificate and key in PEM.
	CA, ClientCert, ClientKey string

	opts Options

	mu       sync.Mutex
	states   map[string][]byte
	locks    map[string][]byte // path → the lock body the holder sent
	fail     []int             // statuses to answer the next requests with
	requests []Request
}

// Start starts a server that t stops when it ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts, states: map[string][]byte{}, locks: map[string][]byte{}}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	// Handshakes that tests make fail on purpose are not news.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if opts.TLS {
		pki, err := newPKI()
		if err != nil {
			t.Fatalf("state server certificates: %v", err)
		}
		srv.TLS = pki.serverTLS()
		s.CA, s.ClientCert, s.ClientKey = pki.caPEM, pki.clientCertPEM, pki.clientKeyPEM
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// FailNext makes the server answer its next len(statuses) requests with
// these statuses, in order, without acting on them.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = append(s.fail, statuses...)
}

// Requests returns a copy of the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// State returns the state stored at path, nil when there is none.
func (s *Server) State(path string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.states[path])
}

// SetState stores a state at path, as another client would.
func (s *Server) SetState(path string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states[path] = slices.Clone(data)
}

// Lock takes the lock of path with the given lock information (JSON), as
// another client would; it reports false when the lock is held.
func (s *Server) Lock(path string, info []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, held := s.locks[path]; held {
		return false
	}
	s.locks[path] = slices.Clone(info)
	return true
}

// LockInfo returns the body the holder of path's lock sent, nil when it is
// not locked.
func (s *Server) LockInfo(path string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.locks[path])
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	status, reply := s.handle(r, body)
	s.requests = append(s.requests, Request{
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, Status: status,
	})
	if reply != nil {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(reply)
}

// handle acts on one request with s.mu held and returns the answer.
func (s *Server) handle(r *http.Request, body []byte) (int, []byte) {
	if len(s.fail) > 0 {
		status := s.fail[0]
		s.fail = s.fail[1:]
		return status, nil
	}
	if s.opts.Username != "" {
		user, pass, ok := r.BasicAuth()
		if !ok {
			return http.StatusUnauthorized, nil
		}
		if subtle.ConstantTimeCompare([]byte(user), []byte(s.opts.Username)) != 1 || subtle.ConstantTimeCompare([]byte(pass), []byte(s.opts.Password)) != 1 {
			return http.StatusForbidden, nil
		}
	}
	path, method := r.URL.Path, r.Method
	if base, ok := strings.CutSuffix(path, "/lock"); ok {
		// GitLab's layout: POST and DELETE on STATE/lock lock and unlock.
		path = base
		switch method {
		case http.MethodPost:
			method = "LOCK"
		case http.MethodDelete:
			method = "UNLOCK"
		default:
			return http.StatusMethodNotAllowed, nil
		}
	}
	switch method {
	case http.MethodGet:
		data, ok := s.states[path]
		if !ok {
			return http.StatusNotFound, nil
		}
		return http.StatusOK, slices.Clone(data)
	case http.MethodPost, http.MethodPut:
		if sum := r.Header.Get("Content-MD5"); sum != "" {
			want := md5.Sum(body)
			if sum != base64.StdEncoding.EncodeToString(want[:]) {
				return http.StatusBadRequest, nil
			}
		}
		if held, ok := s.locks[path]; ok && r.URL.Query().Get("ID") != lockID(held) {
			return http.StatusConflict, slices.Clone(held)
		}
		s.states[path] = body
		return http.StatusOK, nil
	case http.MethodDelete:
		delete(s.states, path)
		return http.StatusOK, nil
	case "LOCK":
		if held, ok := s.locks[path]; ok {
			return http.StatusLocked, slices.Clone(held)
		}
		if lockID(body) == "" {
			return http.StatusBadRequest, nil
		}
		s.locks[path] = body
		return http.StatusOK, nil
	case "UNLOCK":
		held, ok := s.locks[path]
		switch {
		case !ok:
			return http.StatusConflict, nil
		case lockID(body) != lockID(held):
			return http.StatusLocked, slices.Clone(held)
		}
		delete(s.locks, path)
		return http.StatusOK, nil
	}
	return http.StatusMethodNotAllowed, nil
}

// lockID is the ID of a lock information body, "" when it has none.
func lockID(info []byte) string {
	var l struct{ ID string }
	_ = json.Unmarshal(info, &l)
	return l.ID
}
