package diag

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Severity says whether a diagnostic stops the operation (Error) or not (Warning).
type Severity uint8

const (
	// Error is a problem that stops the operation.
	Error Severity = iota + 1
	// Warning is a problem the user should know about that does not stop the operation.
	Warning
)

// String returns "error" or "warning", the words used in the JSON output.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "unknown"
	}
}

// Diagnostic is one problem reported to the user.
type Diagnostic struct {
	Severity Severity
	// Summary is a short, stable sentence users search for, e.g. "Reference to undeclared resource".
	Summary string
	// Detail explains the problem and, where possible, how to fix it.
	Detail string
	// Subject is the source range the problem is about; nil when there is none.
	Subject *hcl.Range
	// Context is a wider source range around Subject, for display; may be nil.
	Context *hcl.Range
	// Address is the resource instance or object concerned, if any
	// (terraform_data.a[0]); nil when there is none.
	Address Address
	// AttributePath is the attribute a provider's diagnostic is about, if
	// any; InBody turns it into a Subject.
	AttributePath cty.Path
	// Deprecation marks a warning about a deprecated module variable or
	// output, which -deprecation may hide; NoDeprecation for any other.
	Deprecation Deprecation
	// GroupKey, when set, keeps this diagnostic apart from others of the
	// same summary when warnings are consolidated: it names what the
	// diagnostic is about (the deprecated output module.net.id).
	GroupKey string
	// Values are the values of the references of the expression at Subject
	// (a failed condition's, or the expression an evaluation error is
	// about), shown under its source line; nil when none.
	Values []ExprValue
	// FunctionCall is the function whose call failed, when the diagnostic
	// is about one ("while calling file(path)"); nil otherwise.
	FunctionCall *FunctionCall
	// Apart keeps the diagnostic out of consolidation: shown in full
	// however many others share its summary (a check block's assertion,
	// as OpenTofu shows each).
	Apart bool
	// Difference holds the values of the two sides of a failed condition
	// written as an equality (a == b), shown as a diff; nil otherwise.
	Difference *ExprDifference
	// ConfidentialCause says that sensitive or ephemeral values are what
	// the diagnostic is about (an error message that refers to them): its
	// Values then say of such a value that it "has a sensitive value" or
	// "has an ephemeral value", where otherwise they leave it out.
	ConfidentialCause bool
	// UnknownCause says that values not yet known are what the diagnostic
	// is about (an unknown for_each): its Values then say of such a value
	// that it is "known only after apply", where otherwise they give only
	// its type.
	UnknownCause bool
}

// Address is what a diagnostic is about: the address of a resource
// instance or object (addrs.AbsResourceInstance, addrs.ObjectAddr) or of
// a list block. String writes it in the user's syntax.
type Address interface {
	String() string
}

// AddressText is d's address in the user's syntax; "" when it has none.
func (d Diagnostic) AddressText() string {
	if d.Address == nil {
		return ""
	}
	return d.Address.String()
}

// ExprDifference is the two sides of an equality whose result a
// diagnostic reports: the left one shown as the value before, the right
// one as the value after. Both keep their marks.
type ExprDifference struct {
	Left, Right cty.Value
}

// ExprValue is the value one reference of an expression had: what a
// diagnostic shows as "var.name is "x"". Value keeps its marks, so that
// renderers hide what is sensitive.
type ExprValue struct {
	// Traversal is the reference as written: var.name, aws_x.y.id.
	Traversal string
	Value     cty.Value
}

// Deprecation says whether a diagnostic warns about a deprecated module
// variable or output, and whether that module is one its user may change.
type Deprecation uint8

const (
	// NoDeprecation is any diagnostic but such a warning.
	NoDeprecation Deprecation = iota
	// LocalModuleDeprecation warns about a module of the configuration's
	// own source tree.
	LocalModuleDeprecation
	// RemoteModuleDeprecation warns about a module installed from a
	// registry or another remote source, or one inside such a module.
	RemoteModuleDeprecation
)

// Error returns the diagnostic as one line, "file:line: summary: detail".
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil {
		fmt.Fprintf(&b, "%s:%d,%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// Diagnostics is a list of diagnostics in the order they were found. A nil
// list means no problems.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the error diagnostics only.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the error diagnostics joined as an error, or nil if there are none.
func (ds Diagnostics) Err() error {
	var errs []error
	for _, d := range ds {
		if d.Severity == Error {
			errs = append(errs, d)
		}
	}
	return errors.Join(errs...)
}

// Appendable is what Append takes: a Diagnostic or Diagnostics. hcl's
// diagnostics become rig's with FromHCL, an error with FromError.
type Appendable interface {
	appendTo(ds Diagnostics) Diagnostics
}

func (d Diagnostic) appendTo(ds Diagnostics) Diagnostics { return append(ds, d) }

func (more Diagnostics) appendTo(ds Diagnostics) Diagnostics { return append(ds, more...) }

// Append returns ds with more appended, in order; a nil argument adds
// nothing.
func (ds Diagnostics) Append(more ...Appendable) Diagnostics {
	for _, m := range more {
		if m != nil {
			ds = m.appendTo(ds)
		}
	}
	return ds
}

// FromError is err as a diagnostic: the Diagnostic it wraps, if any, else
// an error whose summary is err's text.
func FromError(err error) Diagnostic {
	var d Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return Diagnostic{Severity: Error, Summary: err.Error()}
}

// WithAddress names addr, the resource instance or object the
// diagnostics are about, in each diagnostic of ds that names none; it
// changes ds in place and returns it. (A type parameter rather than an
// Address argument: an address is made an interface value only for a
// diagnostic that takes it, not on every call.)
func WithAddress[A Address](ds Diagnostics, addr A) Diagnostics {
	for i := range ds {
		if ds[i].Address == nil {
			ds[i].Address = addr
		}
	}
	return ds
}

// Errorf builds an error diagnostic without a source range.
func Errorf(summary, detailFormat string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}

// At builds an error diagnostic about the given source range.
func At(rng hcl.Range, summary, detail string) Diagnostic {
	r := rng
	return Diagnostic{Severity: Error, Summary: summary, Detail: detail, Subject: &r}
}

// WarningAt builds a warning diagnostic about the given source range.
func WarningAt(rng hcl.Range, summary, detail string) Diagnostic {
	r := rng
	return Diagnostic{Severity: Warning, Summary: summary, Detail: detail, Subject: &r}
}

// FromHCL converts hcl diagnostics into rig diagnostics, keeping ranges.
func FromHCL(hds hcl.Diagnostics) Diagnostics {
	if len(hds) == 0 {
		return nil
	}
	out := make(Diagnostics, 0, len(hds))
	for _, hd := range hds {
		out = append(out, fromHCLOne(hd))
	}
	return out
}

func fromHCLOne(hd *hcl.Diagnostic) Diagnostic {
	d := Diagnostic{Summary: hd.Summary, Detail: hd.Detail, Subject: hd.Subject, Context: hd.Context}
	if hd.Severity == hcl.DiagWarning {
		d.Severity = Warning
	} else {
		d.Severity = Error
	}
	withExpression(&d, hd)
	return d
}

// FormatPath writes an attribute path as messages show it:
// tags["name"], rules[0].port; "" for the empty path. Keys are written as
// FormatRelativePath writes them.
func FormatPath(path cty.Path) string {
	return strings.TrimPrefix(FormatRelativePath(path), ".")
}

// FormatRelativePath writes path as a traversal from the object it is in,
// as OpenTofu's messages about an object's attributes do: .rules[0].port,
// .tags["name"]. A key that is null or not yet known is shown as [?]; a
// step into a set element, which has no key of its own (the element, or
// cty.DynamicVal), as [*].
func FormatRelativePath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case cty.IndexStep:
			k := s.Key
			switch {
			case k.Type() == cty.DynamicPseudoType || !k.Type().IsPrimitiveType():
				b.WriteString("[*]")
			case !k.IsKnown() || k.IsNull():
				b.WriteString("[?]")
			case k.Type() == cty.String:
				b.WriteString("[" + strconv.Quote(k.AsString()) + "]")
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[?]")
			}
		}
	}
	return b.String()
}

// FormatError words a conversion error as messages show it: with the path
// to the offending nested value first, if any ("tags: a string is
// required").
func FormatError(err error) string {
	if perr, ok := err.(cty.PathError); ok && len(perr.Path) > 0 {
		return FormatPath(perr.Path) + ": " + perr.Error()
	}
	return err.Error()
}
