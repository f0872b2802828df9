package parallel

import (
	"sync"
	"sync/atomic"
)

// Memo holds a value per key, each computed once for callers that may ask
// at the same time. The zero value is empty and ready to use; a Memo must
// not be copied once used.
type Memo[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	done atomic.Bool
}

// Do returns the value of k: compute fills it in on the first call for k,
// and every call for k returns once it has, while calls for other keys go
// on. first reports whether this call was the first for k. The value
// belongs to the Memo: callers read it and never change it. compute must
// not ask for k itself (it would wait for itself).
func (m *Memo[K, V]) Do(k K, compute func(v *V)) (v *V, first bool) {
	m.mu.Lock()
	e := m.entries[k]
	first = e == nil
	if first {
		if m.entries == nil {
			m.entries = map[K]*memoEntry[V]{}
		}
		e = &memoEntry[V]{}
		m.entries[k] = e
	}
	m.mu.Unlock()
	e.once.Do(func() {
		compute(&e.v)
		e.done.Store(true)
	})
	return &e.v, first
}

// Computed returns the value of k if it has been computed, without
// computing it.
func (m *Memo[K, V]) Computed(k K) (v *V, ok bool) {
	m.mu.Lock()
	e := m.entries[k]
	m.mu.Unlock()
	if e == nil || !e.done.Load() {
		return nil, false
	}
	return &e.v, true
}

// Forget drops the entries whose keys match selects, so that the next Do
// for each computes its value anew. Callers already holding an entry's
// value, or waiting for it to be computed, keep that one.
func (m *Memo[K, V]) Forget(match func(k K) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.entries {
		if match(k) {
			delete(m.entries, k)
		}
	}
}
