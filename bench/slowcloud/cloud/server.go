package cloud

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config is how the cloud behaves.
type Config struct {
	// Latency is how long every API call takes, give or take Jitter
	// (uniformly).
	Latency, Jitter time.Duration
	// Rate is the API calls admitted per second, all clients together
	// (0: no limit), with bursts of up to Burst calls (default Rate/10,
	// at least 1).
	Rate  float64
	Burst int
	// ThrottleDelay is how long a call refused for the rate takes before
	// its throttling error is answered, give or take half of it (default
	// half the latency).
	ThrottleDelay time.Duration
}

// Server is the cloud: its HTTP handler serves the API under /v1/objects
// and the control endpoints (drift, stats, reports of provider processes),
// which take no latency and no token. Safe for concurrent use.
type Server struct {
	cfg    Config
	bucket *bucket
	store  *store
	sleep  func(context.Context, time.Duration)

	inFlight, maxInFlight atomic.Int64

	mu    sync.Mutex // guards stats
	stats Stats
}

// Stats are the cloud's counters since it started or was last reset.
type Stats struct {
	// Calls counts the API calls answered, by operation (GetObject,
	// CreateObject, …), throttled ones included.
	Calls map[string]int64 `json:"calls"`
	// Throttled counts the calls answered with a throttling error.
	Throttled map[string]int64 `json:"throttled"`
	// MaxInFlight is the most API calls in progress at once.
	MaxInFlight int64 `json:"max_in_flight"`
	// Objects is how many objects the cloud holds.
	Objects int `json:"objects"`
	// Providers adds up what provider processes reported at exit.
	Providers ProviderReport `json:"providers"`
}

// ProviderReport is what a provider process counted: the calls it received
// by RPC, the throttled calls it retried, and the throttling errors it gave
// up on, by RPC.
type ProviderReport struct {
	Processes int64            `json:"processes"`
	RPCs      map[string]int64 `json:"rpcs"`
	Retries   int64            `json:"retries"`
	Failures  map[string]int64 `json:"throttling_failures"`
}

// add adds r to p.
func (p *ProviderReport) add(r ProviderReport) {
	p.Processes += r.Processes
	p.Retries += r.Retries
	p.RPCs = addCounts(p.RPCs, r.RPCs)
	p.Failures = addCounts(p.Failures, r.Failures)
}

func addCounts(dst, src map[string]int64) map[string]int64 {
	for k, v := range src {
		if dst == nil {
			dst = map[string]int64{}
		}
		dst[k] += v
	}
	return dst
}

// NewServer returns a cloud behaving as cfg says, holding no objects.
func NewServer(cfg Config) *Server {
	if cfg.Burst <= 0 {
		cfg.Burst = max(1, int(cfg.Rate/10))
	}
	if cfg.ThrottleDelay <= 0 {
		cfg.ThrottleDelay = cfg.Latency / 2
	}
	s := &Server{cfg: cfg, store: newStore(), sleep: sleepCtx}
	s.bucket = newBucket(cfg.Rate, cfg.Burst, time.Now)
	s.resetLocked()
	return s
}

func sleepCtx(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// Load reads the objects a Save wrote to path (none if it does not exist).
func (s *Server) Load(path string) error { return s.store.load(path) }

// Save writes the objects to path.
func (s *Server) Save(path string) error { return s.store.save(path) }

// Drift changes objects out of band.
func (s *Server) Drift(d Drift) DriftResult { return s.store.drift(d) }

// Stats returns the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Calls, st.Throttled = clone(st.Calls), clone(st.Throttled)
	st.Providers.RPCs, st.Providers.Failures = clone(st.Providers.RPCs), clone(st.Providers.Failures)
	st.MaxInFlight = s.maxInFlight.Load()
	st.Objects = s.store.len()
	return st
}

func clone(m map[string]int64) map[string]int64 { return addCounts(map[string]int64{}, m) }

// ResetStats sets the counters back to zero.
func (s *Server) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetLocked()
}

func (s *Server) resetLocked() {
	s.stats = Stats{Calls: map[string]int64{}, Throttled: map[string]int64{}}
	s.maxInFlight.Store(s.inFlight.Load())
}

// jittered returns d give or take j, uniformly.
func jittered(d, j time.Duration) time.Duration {
	if j <= 0 {
		return d
	}
	return d - j + time.Duration(rand.Int64N(int64(2*j)+1))
}

// apiError is the body of an error answer.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// call wraps the handler of API operation op: it counts the call, takes a
// token (answering ThrottlingException after the throttle delay when there
// is none), and waits the latency before handling it.
func (s *Server) call(op string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for m := s.maxInFlight.Load(); n > m && !s.maxInFlight.CompareAndSwap(m, n); m = s.maxInFlight.Load() {
		}
		admitted := s.bucket.take()
		s.mu.Lock()
		s.stats.Calls[op]++
		if !admitted {
			s.stats.Throttled[op]++
		}
		s.mu.Unlock()
		if !admitted {
			s.sleep(r.Context(), jittered(s.cfg.ThrottleDelay, s.cfg.ThrottleDelay/2))
			writeJSON(w, http.StatusTooManyRequests, apiError{Code: "ThrottlingException", Message: "Rate exceeded"})
			return
		}
		s.sleep(r.Context(), jittered(s.cfg.Latency, s.cfg.Jitter))
		h(w, r)
	}
}

// Handler returns the HTTP handler of the API and the control endpoints.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/objects", s.call("CreateObject", s.create))
	mux.HandleFunc("GET /v1/objects/{id}", s.call("GetObject", s.get))
	mux.HandleFunc("GET /v1/objects", s.call("FindObject", s.find))
	mux.HandleFunc("PUT /v1/objects/{id}", s.call("UpdateObject", s.update))
	mux.HandleFunc("DELETE /v1/objects/{id}", s.call("DeleteObject", s.remove))
	mux.HandleFunc("POST /v1/drift", func(w http.ResponseWriter, r *http.Request) {
		var d Drift
		if !decode(w, r, &d) {
			return
		}
		writeJSON(w, http.StatusOK, s.Drift(d))
	})
	mux.HandleFunc("GET /v1/stats", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, s.Stats()) })
	mux.HandleFunc("POST /v1/stats/reset", func(w http.ResponseWriter, r *http.Request) {
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /v1/reports", func(w http.ResponseWriter, r *http.Request) {
		var rep ProviderReport
		if !decode(w, r, &rep) {
			return
		}
		s.mu.Lock()
		s.stats.Providers.add(rep)
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, apiError{Code: "ValidationException", Message: err.Error()})
		return false
	}
	return true
}

func notFound(w http.ResponseWriter, id string) {
	writeJSON(w, http.StatusNotFound, apiError{Code: "ResourceNotFoundException", Message: "object " + id + " does not exist"})
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var o Object
	if !decode(w, r, &o) {
		return
	}
	if strings.TrimSpace(o.Name) == "" {
		writeJSON(w, http.StatusBadRequest, apiError{Code: "ValidationException", Message: "an object needs a name"})
		return
	}
	writeJSON(w, http.StatusCreated, s.store.create(o))
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	o, ok := s.store.get(id)
	if !ok {
		notFound(w, id)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

func (s *Server) find(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	o, ok := s.store.findByName(name)
	if !ok {
		writeJSON(w, http.StatusNotFound, apiError{Code: "ResourceNotFoundException", Message: "no object is named " + name})
		return
	}
	writeJSON(w, http.StatusOK, o)
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	var o Object
	if !decode(w, r, &o) {
		return
	}
	o.ID = r.PathValue("id")
	o, ok := s.store.update(o)
	if !ok {
		notFound(w, r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, o)
}

func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.store.remove(id) {
		notFound(w, id)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
