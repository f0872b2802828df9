package getproviders

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// LockFileName is the dependency lock file in the working directory.
const LockFileName = ".terraform.lock.hcl"

// Lock is the selection recorded for one provider.
type Lock struct {
	Provider addrs.Provider
	Version  Version
	// Constraints is the normalized constraint string the version was
	// selected under ("" when unconstrained).
	Constraints string
	// Hashes are the package hashes trusted for this version, sorted.
	Hashes []string
}

// Locks is the content of a dependency lock file. The zero value is empty
// and ready to use.
type Locks struct {
	Providers map[addrs.Provider]*Lock
	// Header is the comment the file read began with when it is the one
	// Terraform, OpenTofu or rig writes ("maintained automatically by
	// …"): rewriting keeps it, so that tools taking turns in a directory
	// do not change each other's header. "" writes rig's.
	Header string
}

// NewLocks returns an empty set of locks.
func NewLocks() *Locks { return &Locks{Providers: map[addrs.Provider]*Lock{}} }

// Get returns the lock of p, or nil.
func (l *Locks) Get(p addrs.Provider) *Lock {
	if l == nil {
		return nil
	}
	return l.Providers[p]
}

// Set records lock, replacing any lock of the same provider; its hashes
// are sorted and deduplicated.
func (l *Locks) Set(lock *Lock) {
	if l.Providers == nil {
		l.Providers = map[addrs.Provider]*Lock{}
	}
	lock.Hashes = sortedUnique(lock.Hashes)
	l.Providers[lock.Provider] = lock
}

// Sorted returns the locks ordered by provider address.
func (l *Locks) Sorted() []*Lock {
	out := make([]*Lock, 0, len(l.Providers))
	for _, lk := range l.Providers {
		out = append(out, lk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider.String() < out[j].Provider.String() })
	return out
}

// Equal reports whether l and m record the same selections and hashes.
func (l *Locks) Equal(m *Locks) bool {
	return bytes.Equal(l.Marshal(), m.Marshal())
}

// SameProviders reports whether l and m lock the same providers, whatever
// the versions and hashes they record for them.
func (l *Locks) SameProviders(m *Locks) bool {
	if len(l.Providers) != len(m.Providers) {
		return false
	}
	for p := range l.Providers {
		if _, ok := m.Providers[p]; !ok {
			return false
		}
	}
	return true
}

func sortedUnique(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	j := 0
	for i, s := range out {
		if i == 0 || s != out[j-1] {
			out[j] = s
			j++
		}
	}
	return out[:j]
}

// ReadLockFile reads a lock file; a missing file is an empty set of locks.
func ReadLockFile(path string) (*Locks, diag.Diagnostics) {
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return NewLocks(), nil
	}
	if err != nil {
		return NewLocks(), diag.Diagnostics{diag.Errorf("Failed to read dependency lock file", "Reading %s: %s.", path, err)}
	}
	return ParseLockFile(src, path)
}

var lockFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "provider", LabelNames: []string{"source_addr"}}}}

var lockBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "version", Required: true}, {Name: "constraints"}, {Name: "hashes"},
}}

// ParseLockFile parses the content of a lock file; filename is used in
// diagnostics. Problems are diagnostics with source ranges.
func ParseLockFile(src []byte, filename string) (*Locks, diag.Diagnostics) {
	locks := NewLocks()
	locks.Header = generatedHeader(src)
	f, hds := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return locks, ds
	}
	content, hds := f.Body.Content(lockFileSchema)
	ds = ds.Append(diag.FromHCL(hds))
	for _, b := range content.Blocks {
		p, err := addrs.ParseProviderSource(b.Labels[0])
		if err != nil {
			ds = ds.Append(diag.At(b.LabelRanges[0], "Invalid provider source address", err.Error()+"."))
			continue
		}
		if locks.Providers[p] != nil {
			ds = ds.Append(diag.At(b.DefRange, "Duplicate provider lock", fmt.Sprintf("This lockfile already declared a lock for provider %s.", p)))
			continue
		}
		bc, hds := b.Body.Content(lockBlockSchema)
		ds = ds.Append(diag.FromHCL(hds))
		if hds.HasErrors() {
			continue
		}
		lock := &Lock{Provider: p}
		vs, ok := stringAttr(bc.Attributes["version"], &ds)
		if !ok {
			continue
		}
		if lock.Version, err = ParseVersion(vs); err != nil {
			ds = ds.Append(diag.At(bc.Attributes["version"].Expr.Range(), "Invalid provider version number", err.Error()+"."))
			continue
		}
		if a := bc.Attributes["constraints"]; a != nil {
			cs, ok := stringAttr(a, &ds)
			if !ok {
				continue
			}
			if _, err := ParseConstraints(cs); err != nil {
				ds = ds.Append(diag.At(a.Expr.Range(), "Invalid provider version constraints", err.Error()+"."))
				continue
			}
			lock.Constraints = cs
		}
		if a := bc.Attributes["hashes"]; a != nil {
			v, hds := a.Expr.Value(nil)
			ds = ds.Append(diag.FromHCL(hds))
			if hds.HasErrors() || !(v.Type().IsListType() || v.Type().IsTupleType()) || !v.IsWhollyKnown() {
				ds = ds.Append(diag.At(a.Expr.Range(), "Invalid provider hash set", "The \"hashes\" argument must be a list of strings."))
				continue
			}
			for it := v.ElementIterator(); it.Next(); {
				_, h := it.Element()
				if h.IsNull() || h.Type() != cty.String {
					ds = ds.Append(diag.At(a.Expr.Range(), "Invalid provider hash set", "The \"hashes\" argument must be a list of strings."))
					break
				}
				lock.Hashes = append(lock.Hashes, h.AsString())
			}
		}
		locks.Set(lock)
	}
	return locks, ds
}

func stringAttr(a *hcl.Attribute, ds *diag.Diagnostics) (string, bool) {
	v, hds := a.Expr.Value(nil)
	*ds = ds.Append(diag.FromHCL(hds))
	if hds.HasErrors() || v.Type() != cty.String || v.IsNull() {
		*ds = ds.Append(diag.At(a.Expr.Range(), "Invalid "+a.Name, "A string is required."))
		return "", false
	}
	return v.AsString(), true
}

const lockFileHeader = `# This file is maintained automatically by "rig init".
# Manual edits may be lost in future updates.
`

// generatedHeader returns the first two lines of src when they are the
// header a tool writes: `# This file is maintained automatically by
// "… init".` and `# Manual edits may be lost in future updates.`.
func generatedHeader(src []byte) string {
	lines := strings.SplitAfterN(string(src), "\n", 3)
	if len(lines) < 3 {
		return ""
	}
	first, second := lines[0], lines[1]
	if !strings.HasPrefix(first, `# This file is maintained automatically by "`) || !strings.HasSuffix(first, " init\".\n") ||
		second != "# Manual edits may be lost in future updates.\n" {
		return ""
	}
	return first + second
}

// Marshal returns the lock file content in the form Terraform writes:
// the header, then one provider block per provider in address order,
// each with version, constraints (when set) and the sorted hashes.
func (l *Locks) Marshal() []byte {
	var b bytes.Buffer
	if l.Header != "" {
		b.WriteString(l.Header)
	} else {
		b.WriteString(lockFileHeader)
	}
	for _, lk := range l.Sorted() {
		fmt.Fprintf(&b, "\nprovider %s {\n", strconv.Quote(lk.Provider.String()))
		if lk.Constraints != "" {
			fmt.Fprintf(&b, "  version     = %s\n", strconv.Quote(lk.Version.String()))
			fmt.Fprintf(&b, "  constraints = %s\n", strconv.Quote(lk.Constraints))
		} else {
			fmt.Fprintf(&b, "  version = %s\n", strconv.Quote(lk.Version.String()))
		}
		if len(lk.Hashes) > 0 {
			b.WriteString("  hashes = [\n")
			for _, h := range lk.Hashes {
				fmt.Fprintf(&b, "    %s,\n", strconv.Quote(h))
			}
			b.WriteString("  ]\n")
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// WriteLockFile writes l to path atomically (a temporary file renamed
// over it).
func WriteLockFile(path string, l *Locks) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".terraform.lock.hcl.tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(l.Marshal()); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
