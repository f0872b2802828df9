package ui

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
	wordwrap "github.com/mitchellh/go-wordwrap"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
)

// RenderDiagnostics writes each diagnostic in the boxed form OpenTofu uses
// on a color terminal:
//
//	╷
//	│ Error: Summary
//	│
//	│   on main.tf line 3, in resource "terraform_data" "a":
//	│    3:   input = var.nope
//	│
//	│ Detail text, wrapped.
//	╵
//
// sources maps file names to their contents; a diagnostic about a file not
// in sources is shown without its source line. Diagnostics are written in
// the order given, at most 20 of each file followed by one that says how
// many more there are. Control characters (but tab and newline) and bytes
// that are not UTF-8, in texts and source lines, are written as escapes
// (\x1b), never as they are.
func RenderDiagnostics(w io.Writer, ds diag.Diagnostics, sources map[string][]byte, opts RenderOptions) error {
	files := newSourceFiles(sources)
	var b strings.Builder
	for _, d := range limitPerFile(ds) {
		b.WriteString(boxedDiagnostic(printableDiagnostic(d), files, opts))
		if opts.Separated {
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RenderDiagnosticsPlain writes diagnostics in the form OpenTofu uses with
// -no-color: no box, no escape sequences, each preceded by a blank line.
// It limits and escapes as RenderDiagnostics does.
func RenderDiagnosticsPlain(w io.Writer, ds diag.Diagnostics, sources map[string][]byte, opts RenderOptions) error {
	files := newSourceFiles(sources)
	width := opts.width()
	var b strings.Builder
	for _, d := range limitPerFile(ds) {
		d = printableDiagnostic(d)
		switch d.Severity {
		case diag.Error:
			b.WriteString("\nError: ")
		case diag.Warning:
			b.WriteString("\nWarning: ")
		default:
			b.WriteString("\n")
		}
		b.WriteString(d.Summary + "\n\n")
		writeSnippet(&b, d, files, ropts{showSensitive: opts.ShowSensitive})
		writeDetail(&b, d.Detail, width-1)
		if opts.Separated {
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func boxedDiagnostic(d diag.Diagnostic, files *sourceFiles, opts RenderOptions) string {
	o := ropts{color: opts.Color, showSensitive: opts.ShowSensitive}
	var body strings.Builder
	var line, start, end string
	switch d.Severity {
	case diag.Warning:
		body.WriteString(o.c("[bold][yellow]Warning: [reset]"))
		line, start, end = o.c("[yellow]│[reset] "), o.c("[yellow]╷[reset]"), o.c("[yellow]╵[reset]")
	default:
		body.WriteString(o.c("[bold][red]Error: [reset]"))
		line, start, end = o.c("[red]│[reset] "), o.c("[red]╷[reset]"), o.c("[red]╵[reset]")
	}
	fmt.Fprintf(&body, o.c("[bold]%s[reset]\n\n"), d.Summary)
	writeSnippet(&body, d, files, o)
	writeDetail(&body, d.Detail, opts.width()-3)

	var b strings.Builder
	b.WriteString(start + "\n")
	sc := bufio.NewScanner(strings.NewReader(body.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		prefix := line
		if sc.Text() == "" {
			prefix = strings.TrimSpace(prefix)
		}
		b.WriteString(prefix + sc.Text() + "\n")
	}
	b.WriteString(end + "\n")
	return b.String()
}

// writeDetail writes the detail paragraphs wrapped to width; lines starting
// with a space are left as they are.
func writeDetail(b *strings.Builder, detail string, width int) {
	if detail == "" {
		return
	}
	for _, l := range strings.Split(detail, "\n") {
		if width > 0 && !strings.HasPrefix(l, " ") {
			l = wordwrap.WrapString(l, uint(width))
		}
		b.WriteString(l + "\n")
	}
}

// writeSnippet writes the "with"/"on" lines and the source lines of a
// diagnostic, followed by a blank line; nothing without a source range.
func writeSnippet(b *strings.Builder, d diag.Diagnostic, files *sourceFiles, o ropts) {
	if d.Address != nil {
		fmt.Fprintf(b, "  with %s,\n", d.Address)
	}
	hl, _ := diagRanges(d)
	if hl == nil {
		return
	}
	sn := files.snippet(d)
	if sn == nil {
		fmt.Fprintf(b, "  on %s line %d:\n  (source code not available)\n\n", printable(hl.Filename), hl.Start.Line)
		return
	}
	ctx := ""
	if sn.Context != nil {
		ctx = ", in " + printable(*sn.Context)
	}
	fmt.Fprintf(b, "  on %s line %d%s:\n", printable(hl.Filename), hl.Start.Line, ctx)
	code := sn.Code
	s, e := sn.HighlightStartOffset, sn.HighlightEndOffset
	code = fmt.Sprintf(o.c("%s[underline]%s[reset]%s"), printable(code[:s]), printable(code[s:e]), printable(code[e:]))
	for i, l := range strings.Split(code, "\n") {
		fmt.Fprintf(b, "%4d: %s\n", sn.StartLine+i, l)
	}
	writeExprValues(b, d, o)
	writeExprDifference(b, d.Difference, o)
	b.WriteString("\n")
}

// diagRanges returns the range to highlight and the (possibly wider) range
// to show, nil when the diagnostic has no source range. Empty ranges are
// widened to one byte.
func diagRanges(d diag.Diagnostic) (highlight, snippet *hcl.Range) {
	if d.Subject == nil {
		return nil, nil
	}
	hl := *d.Subject
	if hl.End == (hcl.Pos{}) {
		hl.End = hl.Start
	}
	sn := hl
	if d.Context != nil {
		sn = *d.Context
	}
	sn = hcl.RangeOver(sn, hl)
	if hl.Empty() {
		hl.End.Byte++
		hl.End.Column++
	}
	if sn.Empty() {
		sn.End.Byte++
		sn.End.Column++
	}
	return &hl, &sn
}

// sourceFiles holds configuration sources, parsed on first use for the
// block context of snippets.
type sourceFiles struct {
	src    map[string][]byte
	parsed map[string]*hcl.File
}

func newSourceFiles(src map[string][]byte) *sourceFiles {
	return &sourceFiles{src: src, parsed: map[string]*hcl.File{}}
}

func (f *sourceFiles) file(name string) *hcl.File {
	if hf, ok := f.parsed[name]; ok {
		return hf
	}
	p := hclparse.NewParser()
	var hf *hcl.File
	if strings.HasSuffix(name, ".json") {
		hf, _ = p.ParseJSON(f.src[name], name)
	} else {
		hf, _ = p.ParseHCL(f.src[name], name)
	}
	f.parsed[name] = hf
	return hf
}

// snippet extracts the source lines of a diagnostic; nil when it has no
// range or its file is not among the sources.
func (f *sourceFiles) snippet(d diag.Diagnostic) *jsonformat.Snippet {
	hl, sr := diagRanges(d)
	if hl == nil {
		return nil
	}
	src, ok := f.src[sr.Filename]
	if !ok || src == nil {
		return nil
	}
	sn := &jsonformat.Snippet{StartLine: sr.Start.Line, Values: exprStatements(d.Values, false, d.ConfidentialCause, d.UnknownCause), FunctionCall: functionCallToJSON(d.FunctionCall)}
	if hf := f.file(sr.Filename); hf != nil {
		if ctx := hcled.ContextString(hf, hl.Start.Byte-1); ctx != "" {
			sn.Context = &ctx
		}
	}
	var code strings.Builder
	codeStart := -1
	sc := hcl.NewRangeScanner(src, hl.Filename, bufio.ScanLines)
	for sc.Scan() {
		lr := sc.Range()
		if lr.Overlaps(*sr) {
			if codeStart < 0 {
				codeStart = lr.Start.Byte
			}
			code.Write(lr.SliceBytes(src))
			code.WriteByte('\n')
		}
	}
	if codeStart < 0 {
		codeStart = 0
	}
	sn.Code = strings.TrimSuffix(code.String(), "\n")
	start := hl.Start.Byte - codeStart
	end := start + (hl.End.Byte - hl.Start.Byte)
	sn.HighlightStartOffset = min(max(start, 0), len(sn.Code))
	sn.HighlightEndOffset = min(max(end, 0), len(sn.Code))
	if sn.HighlightEndOffset < sn.HighlightStartOffset {
		sn.HighlightEndOffset = sn.HighlightStartOffset
	}
	return sn
}
