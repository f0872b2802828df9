package config

import (
	"bytes"
	"runtime"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/parallel"
)

// chunkedParseMin is the file size from which native syntax is parsed in
// pieces, on every core. The hcl lexer holds every token of what it parses
// at once (about a hundred bytes per token, several tokens per source
// byte), so parsing a generated file of tens of megabytes whole needs
// gigabytes; parsed in pieces of top-level blocks, the tokens of a few
// pieces at a time. The lexer reads about 5 MB a second, on one core: a
// file of a thousand blocks (170 KB) takes it 30 ms, in pieces on two cores
// half of that. Smaller files, the usual case, are parsed whole.
var chunkedParseMin = 64 << 10

// maxPiece is the size a piece grows to before it is cut, at most.
const maxPiece = 256 << 10

// pieceSize is the size each piece of a file of n bytes grows to before it
// is cut: a few pieces per core, none over maxPiece.
func pieceSize(n int) int {
	return min(maxPiece, max(chunkedParseMin/2, n/(2*runtime.GOMAXPROCS(0))))
}

// parseNative parses a native-syntax configuration file. A large file is
// parsed as consecutive runs of its top-level items, each with its true
// start position, and the bodies merged; the result is the same syntax tree
// as one parse of the whole file. When any piece reports a problem, or the
// file cannot be cut with certainty, the whole file is parsed at once so that
// diagnostics are exactly those of a single parse.
func parseNative(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	// Columns count grapheme clusters, which invalid UTF-8 can run across a
	// newline; such files are parsed whole.
	if len(src) < chunkedParseMin || !utf8.Valid(src) {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	cuts := topLevelCuts(src, pieceSize(len(src)))
	if len(cuts) == 0 {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	if body := parsePieces(src, filename, cuts); body != nil {
		return &hcl.File{Body: body, Bytes: src}, nil
	}
	return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
}

// parsePieces parses src cut at the given offsets, the pieces in parallel,
// and merges their bodies, or returns nil if a piece has any diagnostic or
// two pieces define the same top-level attribute.
func parsePieces(src []byte, filename string, cuts []int) *hclsyntax.Body {
	type piece struct {
		from, to int
		start    hcl.Pos
		body     *hclsyntax.Body
		failed   bool
	}
	pieces := make([]piece, len(cuts)+1)
	pos := hcl.InitialPos
	from := 0
	for i := range pieces {
		to := len(src)
		if i < len(cuts) {
			to = cuts[i]
		}
		pieces[i] = piece{from: from, to: to, start: pos}
		// Every cut is just after a newline, so the next piece starts in
		// column 1 of the line after this piece's last newline.
		pos = hcl.Pos{Line: pos.Line + bytes.Count(src[from:to], []byte{'\n'}), Column: 1, Byte: to}
		from = to
	}

	parallel.For(len(pieces), func(i int) {
		p := &pieces[i]
		f, diags := hclsyntax.ParseConfig(src[p.from:p.to], filename, p.start)
		if len(diags) > 0 {
			p.failed = true
			return
		}
		p.body = f.Body.(*hclsyntax.Body)
	})

	merged := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, Blocks: hclsyntax.Blocks{}}
	for i, p := range pieces {
		if p.failed {
			return nil
		}
		for name, attr := range p.body.Attributes {
			if _, dup := merged.Attributes[name]; dup {
				return nil
			}
			merged.Attributes[name] = attr
		}
		merged.Blocks = append(merged.Blocks, p.body.Blocks...)
		if i == 0 {
			merged.SrcRange.Filename = filename
			merged.SrcRange.Start = p.body.SrcRange.Start
		}
		merged.SrcRange.End = p.body.SrcRange.End
		merged.EndRange = p.body.EndRange
	}
	return merged
}

// topLevelCuts returns offsets in src, each just after a newline that ends a
// top-level item (outside any bracket, string, heredoc or comment), at least
// minPiece bytes apart. It returns nil when src does not scan cleanly
// (unbalanced brackets, an unterminated string or comment), leaving such
// files to a whole parse and its diagnostics.
func topLevelCuts(src []byte, minPiece int) []int {
	s := scanner{src: src}
	var cuts []int
	last := 0
	for s.i < len(src) {
		top := s.top()
		// Most bytes change nothing: skip runs of them in a tight loop.
		skip := &codeBoring
		if top.kind == frameString {
			skip = &stringBoring
		}
		if top.kind != frameHeredoc {
			for s.i < len(src) && skip[src[s.i]] {
				s.i++
			}
			if s.i >= len(src) {
				break
			}
		}
		c := src[s.i]
		switch top.kind {
		case frameCode, frameInterp:
			if !s.code(c, top) {
				return nil
			}
			if len(s.stack) == 0 && c == '\n' && s.i-last >= minPiece && s.i < len(src) {
				cuts = append(cuts, s.i)
				last = s.i
			}
		case frameString:
			if !s.quoted(c) {
				return nil
			}
		case frameHeredoc:
			s.heredoc(c, top)
		}
	}
	if len(s.stack) != 0 {
		return nil
	}
	if len(cuts) > 0 && cuts[len(cuts)-1] >= len(src) {
		cuts = cuts[:len(cuts)-1]
	}
	return cuts
}

// codeBoring and stringBoring mark the bytes that the scanner steps over
// one at a time without effect, in code and in a quoted template.
var codeBoring, stringBoring = func() (code, str [256]bool) {
	for c := range 256 {
		code[c], str[c] = true, true
	}
	for _, c := range []byte("#/\"<{[(}])\n") {
		code[c] = false
	}
	for _, c := range []byte("\n\\$%\"") {
		str[c] = false
	}
	return code, str
}()

type frameKind uint8

const (
	frameCode    frameKind = iota // top level, or inside (), [] or {}
	frameInterp                   // inside ${...} or %{...} of a template
	frameString                   // inside a quoted template "..."
	frameHeredoc                  // inside a heredoc template
)

type frame struct {
	kind   frameKind
	close  byte   // frameCode: the bracket that ends it
	marker []byte // frameHeredoc: the line that ends it
}

// scanner walks native syntax just far enough to know the nesting at each
// byte. s.i is the next byte to read; each step advances it.
type scanner struct {
	src   []byte
	i     int
	stack []frame
}

func (s *scanner) top() frame {
	if len(s.stack) == 0 {
		return frame{kind: frameCode}
	}
	return s.stack[len(s.stack)-1]
}

func (s *scanner) push(f frame) { s.stack = append(s.stack, f) }
func (s *scanner) pop()         { s.stack = s.stack[:len(s.stack)-1] }

func (s *scanner) at(prefix string) bool {
	return bytes.HasPrefix(s.src[s.i:], []byte(prefix))
}

// code steps over one token's worth of expression or structure. It reports
// false on a closing bracket with nothing open, or an unterminated comment.
func (s *scanner) code(c byte, top frame) bool {
	switch {
	case c == '#' || s.at("//"):
		for s.i < len(s.src) && s.src[s.i] != '\n' {
			s.i++
		}
		return true
	case s.at("/*"):
		end := bytes.Index(s.src[s.i+2:], []byte("*/"))
		if end < 0 {
			return false
		}
		s.i += 2 + end + 2
		return true
	case c == '"':
		s.push(frame{kind: frameString})
	case s.at("<<"):
		if marker, n := heredocIntro(s.src[s.i:]); n > 0 {
			s.push(frame{kind: frameHeredoc, marker: marker})
			s.i += n
			return true
		}
		s.i += 2
		return true
	case c == '{':
		s.push(frame{kind: frameCode, close: '}'})
	case c == '[':
		s.push(frame{kind: frameCode, close: ']'})
	case c == '(':
		s.push(frame{kind: frameCode, close: ')'})
	case c == '}' || c == ']' || c == ')':
		if len(s.stack) == 0 {
			return false
		}
		if top.kind == frameInterp {
			if c != '}' {
				return false
			}
		} else if top.close != c {
			return false
		}
		s.pop()
	}
	s.i++
	return true
}

// quoted steps over one character of a quoted template. A newline before
// the closing quote is a syntax error; the whole parse will report it.
func (s *scanner) quoted(c byte) bool {
	switch {
	case c == '\n':
		return false
	case c == '\\':
		s.i += 2
		return true
	case s.at("$${") || s.at("%%{"):
		s.i += 3
		return true
	case s.at("${") || s.at("%{"):
		s.push(frame{kind: frameInterp})
		s.i += 2
		return true
	case c == '"':
		s.pop()
	}
	s.i++
	return true
}

// heredoc steps over one character of a heredoc template, or over its
// closing marker line.
func (s *scanner) heredoc(c byte, top frame) {
	if s.i > 0 && s.src[s.i-1] == '\n' {
		line := s.src[s.i:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if bytes.Equal(bytes.TrimRight(bytes.TrimLeft(line, " \t"), "\r"), top.marker) {
			s.pop()
			s.i += len(line)
			return
		}
	}
	switch {
	case s.at("$${") || s.at("%%{"):
		s.i += 3
	case s.at("${") || s.at("%{"):
		s.push(frame{kind: frameInterp})
		s.i += 2
	default:
		s.i++
	}
}

// heredocIntro reports the marker of a heredoc starting at b ("<<EOT\n" or
// "<<-EOT\n") and the length of that introduction, or n = 0 if b does not
// start one.
func heredocIntro(b []byte) (marker []byte, n int) {
	i := 2
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	for i < len(b) && (b[i] == '_' || b[i] == '-' || b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] >= '0' && b[i] <= '9' && i > start) {
		i++
	}
	if i == start {
		return nil, 0
	}
	marker = b[start:i]
	if i < len(b) && b[i] == '\r' {
		i++
	}
	if i >= len(b) || b[i] != '\n' {
		return nil, 0
	}
	return marker, i + 1
}
