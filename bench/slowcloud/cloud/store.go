package cloud

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
)

// Object is one object of the cloud, as the API returns it.
type Object struct {
	ID    string            `json:"id"`
	Name  string            `json:"name"`
	Value string            `json:"value,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	// Revision counts the object's changes, drift included.
	Revision int64 `json:"revision"`
}

// store holds the objects. Safe for concurrent use.
type store struct {
	mu      sync.Mutex // guards everything below
	next    int64
	objects map[string]Object
	byName  map[string]string // name → ID of the latest object of that name
	drifts  map[string]bool   // drift keys applied
}

func newStore() *store {
	return &store{objects: map[string]Object{}, byName: map[string]string{}, drifts: map[string]bool{}}
}

func (s *store) create(o Object) Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	o.ID = fmt.Sprintf("so-%08x", s.next)
	o.Revision = 1
	o.Tags = maps.Clone(o.Tags)
	s.objects[o.ID] = o
	s.byName[o.Name] = o.ID
	return o
}

func (s *store) get(id string) (Object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[id]
	return o, ok
}

func (s *store) findByName(name string) (Object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[s.byName[name]]
	return o, ok
}

func (s *store) update(o Object) (Object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.objects[o.ID]
	if !ok {
		return Object{}, false
	}
	if s.byName[old.Name] == o.ID {
		delete(s.byName, old.Name)
	}
	o.Revision = old.Revision + 1
	o.Tags = maps.Clone(o.Tags)
	s.objects[o.ID] = o
	s.byName[o.Name] = o.ID
	return o, true
}

func (s *store) remove(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[id]
	if !ok {
		return false
	}
	delete(s.objects, id)
	if s.byName[o.Name] == id {
		delete(s.byName, o.Name)
	}
	return true
}

func (s *store) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.objects)
}

// Drift says which objects change out of band: each object is picked by a
// hash of Seed and its ID, so the same drift picks the same objects.
type Drift struct {
	// Changed is the fraction of objects whose value changes (a suffix
	// "~drift" is added, their revision goes up).
	Changed float64 `json:"changed"`
	// Deleted is the fraction of objects deleted.
	Deleted float64 `json:"deleted,omitempty"`
	Seed    int64   `json:"seed,omitempty"`
	// Key, when set, makes the drift happen once: a later drift with the
	// same key changes nothing (every provider process of one run may ask).
	Key string `json:"key,omitempty"`
}

// DriftResult says what a drift did.
type DriftResult struct {
	Changed int  `json:"changed"`
	Deleted int  `json:"deleted"`
	Skipped bool `json:"skipped,omitempty"` // the key was applied before
}

// ParseDrift reads a drift as SLOWCLOUD_DRIFT gives it:
// "CHANGED[,deleted=F][,seed=N]", fractions between 0 and 1 ("0.1",
// "0.05,deleted=0.01,seed=3"). The whole text is the drift's key.
func ParseDrift(text string) (Drift, error) {
	d := Drift{Key: text}
	for i, part := range splitComma(text) {
		name, value, named := cutEq(part)
		var err error
		switch {
		case i == 0 && !named:
			d.Changed, err = strconv.ParseFloat(part, 64)
		case name == "deleted":
			d.Deleted, err = strconv.ParseFloat(value, 64)
		case name == "seed":
			d.Seed, err = strconv.ParseInt(value, 10, 64)
		default:
			return Drift{}, fmt.Errorf("drift %q: unknown part %q (want CHANGED[,deleted=F][,seed=N])", text, part)
		}
		if err != nil {
			return Drift{}, fmt.Errorf("drift %q: %w", text, err)
		}
	}
	if d.Changed < 0 || d.Deleted < 0 || d.Changed+d.Deleted > 1 {
		return Drift{}, fmt.Errorf("drift %q: fractions must be between 0 and 1 together", text)
	}
	return d, nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func cutEq(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func (s *store) drift(d Drift) DriftResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.Key != "" {
		if s.drifts[d.Key] {
			return DriftResult{Skipped: true}
		}
		s.drifts[d.Key] = true
	}
	var res DriftResult
	for _, id := range slices.Sorted(maps.Keys(s.objects)) {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%s", d.Seed, id)
		x := float64(mix(h.Sum64())>>11) / (1 << 53)
		o := s.objects[id]
		switch {
		case x < d.Deleted:
			delete(s.objects, id)
			if s.byName[o.Name] == id {
				delete(s.byName, o.Name)
			}
			res.Deleted++
		case x < d.Deleted+d.Changed:
			o.Value += "~drift"
			o.Revision++
			s.objects[id] = o
			res.Changed++
		}
	}
	return res
}

// mix spreads the bits of an FNV hash (whose high bits barely change
// between short keys) over all 64 (splitmix64's finalizer).
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

type storeFile struct {
	Next    int64    `json:"next"`
	Objects []Object `json:"objects"`
	Drifts  []string `json:"drifts,omitempty"`
}

// save writes the objects to path.
func (s *store) save(path string) error {
	s.mu.Lock()
	f := storeFile{Next: s.next, Drifts: slices.Sorted(maps.Keys(s.drifts))}
	for _, id := range slices.Sorted(maps.Keys(s.objects)) {
		f.Objects = append(f.Objects, s.objects[id])
	}
	s.mu.Unlock()
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("saving objects: %w", err)
	}
	return os.Rename(tmp, path)
}

// load reads the objects save wrote; a missing file is an empty cloud.
func (s *store) load(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("loading objects: %w", err)
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("loading objects from %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next = f.Next
	for _, o := range f.Objects {
		s.objects[o.ID] = o
		s.byName[o.Name] = o.ID
	}
	for _, k := range f.Drifts {
		s.drifts[k] = true
	}
	return nil
}
