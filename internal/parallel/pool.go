package parallel

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Pool runs functions on goroutines of its own, at most a limit of them at
// once and, for each concurrency class, at most that class's limit: the
// bound on work that waits on something outside the process, such as
// calls to a remote API. Go never blocks: a function that cannot start
// yet waits in the pool, costing no goroutine. Among the waiting functions
// that can start, the first submitted starts first; one that cannot start
// (its class is full) never keeps waiting one that can, so no slot is left
// idle while work that could use it waits.
//
// A Pool is safe for concurrent use. Its goroutines end when nothing is
// left to run; a Pool needs no closing.
type Pool struct {
	limit int

	mu sync.Mutex // guards everything below
	// classLimits holds each class's limit; dynamic, for a class added by
	// AddClass, the function giving it (nil for the classes of NewPool).
	classLimits []int
	dynamic     []func() int
	running     int    // functions started and not returned
	inClass     []int  // per class: its functions running
	seq         uint64 // submission counter
	// waiting holds the functions not started yet, one queue per
	// signature (the set of limited classes a function belongs to).
	waiting map[string]*poolQueue
}

type poolTask struct {
	seq     uint64
	classes []int // the limited classes, sorted
	fn      func()
}

// poolQueue is a FIFO of tasks of one signature.
type poolQueue struct {
	classes []int
	tasks   []poolTask
	head    int
}

// NewPool returns a pool running at most limit functions at once (no cap
// when limit <= 0) and at most classLimits[c] of class c (no cap for a
// class whose limit is <= 0).
func NewPool(limit int, classLimits []int) *Pool {
	return &Pool{limit: limit, classLimits: slices.Clone(classLimits), dynamic: make([]func() int, len(classLimits)),
		inClass: make([]int, len(classLimits)), waiting: map[string]*poolQueue{}}
}

// Go runs fn on a goroutine of the pool as soon as a slot is free in the
// pool and in each of classes (indexes into the class limits; others are
// ignored). A panic in fn is not recovered.
func (p *Pool) Go(classes []int, fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var limited []int
	for _, c := range classes {
		if c >= 0 && c < len(p.classLimits) && p.classLimits[c] > 0 && !slices.Contains(limited, c) {
			limited = append(limited, c)
		}
	}
	slices.Sort(limited)
	var b strings.Builder
	for _, c := range limited {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	p.seq++
	q := p.waiting[b.String()]
	if q == nil {
		q = &poolQueue{classes: limited}
		p.waiting[b.String()] = q
	}
	q.tasks = append(q.tasks, poolTask{seq: p.seq, classes: limited, fn: fn})
	for {
		t, ok := p.nextLocked()
		if !ok {
			return
		}
		go p.work(t)
	}
}

// work runs t, then, while another task can start, runs it in turn.
func (p *Pool) work(t poolTask) {
	for {
		t.fn()
		p.mu.Lock()
		p.running--
		for _, c := range t.classes {
			p.inClass[c]--
		}
		next, ok := p.nextLocked()
		// Finishing may free a class slot as well as this one: start
		// whatever else can start now.
		for {
			more, ok := p.nextLocked()
			if !ok {
				break
			}
			go p.work(more)
		}
		p.mu.Unlock()
		if !ok {
			return
		}
		t = next
	}
}

// nextLocked takes the first submitted waiting task that can start, counts
// it as running, and reports whether there was one. The caller holds mu.
func (p *Pool) nextLocked() (poolTask, bool) {
	if p.limit > 0 && p.running >= p.limit {
		return poolTask{}, false
	}
	var best *poolQueue
	for _, q := range p.waiting {
		if q.head < len(q.tasks) && (best == nil || q.tasks[q.head].seq < best.tasks[best.head].seq) && p.fitsLocked(q.classes) {
			best = q
		}
	}
	if best == nil {
		return poolTask{}, false
	}
	t := best.tasks[best.head]
	best.tasks[best.head] = poolTask{}
	best.head++
	if best.head == len(best.tasks) {
		best.tasks, best.head = best.tasks[:0], 0
	} else if best.head > 64 && best.head*2 > len(best.tasks) {
		n := copy(best.tasks, best.tasks[best.head:])
		clear(best.tasks[n:])
		best.tasks, best.head = best.tasks[:n], 0
	}
	p.running++
	for _, c := range t.classes {
		p.inClass[c]++
	}
	return t, true
}

func (p *Pool) fitsLocked(classes []int) bool {
	for _, c := range classes {
		n := p.classLimits[c]
		if p.dynamic[c] != nil {
			n = max(1, p.dynamic[c]())
		}
		if p.inClass[c] >= n {
			return false
		}
	}
	return true
}

// AddClass adds a concurrency class whose limit is what limit returns when
// a function of the class may start, and returns its index for Go. The
// limit may change while functions run, and only then: the pool reads it
// again each time one returns. limit is called with the pool's lock held
// and must not call the pool; a result below 1 counts as 1.
func (p *Pool) AddClass(limit func() int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.classLimits = append(p.classLimits, 1)
	p.dynamic = append(p.dynamic, limit)
	p.inClass = append(p.inClass, 0)
	return len(p.classLimits) - 1
}
