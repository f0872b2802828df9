package config

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/addrs"
)

// piecesSamples are native-syntax files whose top-level items hide braces,
// quotes and newlines in every place the cutter must see past.
var piecesSamples = map[string]string{
	"blocks": `resource "terraform_data" "a" {
  input = { value = "x", refs = [] }
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`,
	"comments": `# a } comment
resource "a" "b" { # { another
  x = 1 // }
  /* }
  { */
}
/* top-level
} block comment */
locals {
  y = 2
}
`,
	"strings": `locals {
  a = "}{ ${"{"} %{ if true }]%{ endif } $${x} %%{y} \" }"
  b = "${ { k = "}" }.k }"
}
output "o" {
  value = "${local.a}\n"
}
`,
	"heredocs": `locals {
  doc = <<EOT
}
  resource "x" "y" {
${ {a = "}"}.a }
EOT
  indented = <<-EOT
    {
    EOT
}
variable "v" {
  default = <<EOF
EOF
}
`,
	"crlf": "locals {\r\n  a = 1\r\n}\r\n\r\nlocals {\r\n  b = <<EOT\r\n}\r\nEOT\r\n}\r\n",
	"attributes": `a = [
  1,
  2,
]
b = { c = "}" }
resource "a" "b" {}
`,
	"no trailing newline": "locals {\n  a = 1\n}\nlocals {\n  b = 2\n}",
}

// TestParsePiecesMatchesWholeParse checks that a file parsed in pieces, cut
// at every top-level boundary, gives the same syntax tree, source ranges
// included, as one parse of the whole file.
func TestParsePiecesMatchesWholeParse(t *testing.T) {
	files := map[string]string{}
	for name, src := range piecesSamples {
		files[name] = src
	}
	paths, _ := filepath.Glob("testdata/load/*.txtar")
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".tf") {
				files[filepath.Base(p)+"/"+f.Name] = string(f.Data)
			}
		}
	}
	for name, src := range files {
		t.Run(name, func(t *testing.T) {
			whole, wholeDiags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
			cuts := topLevelCuts([]byte(src), 1)
			if wholeDiags.HasErrors() {
				if cuts != nil {
					if body := parsePieces([]byte(src), "main.tf", cuts); body != nil {
						t.Fatalf("pieces parsed cleanly where the whole file has errors: %s", wholeDiags.Error())
					}
				}
				return
			}
			if len(cuts) == 0 {
				if strings.Count(src, "\n}") > 1 {
					t.Fatalf("no cut found in a file of several blocks")
				}
				return
			}
			body := parsePieces([]byte(src), "main.tf", cuts)
			if body == nil {
				t.Fatalf("pieces at %v did not parse cleanly", cuts)
			}
			if !reflect.DeepEqual(body, whole.Body) {
				t.Errorf("pieces at %v differ from the whole parse", cuts)
			}
		})
	}
}

func TestTopLevelCuts(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // the text of each piece
	}{
		{"two blocks", "a {\n}\nb {\n}\n", []string{"a {\n}\n", "b {\n}\n"}},
		{"brace in string", "a {\n x = \"}\"\n}\nb {}\n", []string{"a {\n x = \"}\"\n}\n", "b {}\n"}},
		{"heredoc", "a {\n x = <<E\n}\nE\n}\nb {}\n", []string{"a {\n x = <<E\n}\nE\n}\n", "b {}\n"}},
		{"comment", "a { # }\n}\n/* } */\nb {}\n", []string{"a { # }\n}\n", "/* } */\n", "b {}\n"}},
		{"unbalanced", "a {\n}\n}\nb {}\n", nil},
		{"unterminated string", "a {\n x = \"}\n}\nb {}\n", nil},
		{"unterminated comment", "a {}\n/* b {}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cuts := topLevelCuts([]byte(tt.src), 1)
			var got []string
			if cuts != nil {
				from := 0
				for _, c := range append(cuts, len(tt.src)) {
					got = append(got, tt.src[from:c])
					from = c
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pieces = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLargeFileParsedInPieces loads a file above the piece size through
// LoadFiles and checks that its resources, and the source ranges reported
// for a problem deep inside it, are those of the file.
func TestLargeFileParsedInPieces(t *testing.T) {
	var b strings.Builder
	n := 0
	for b.Len() < 3*chunkedParseMin {
		b.WriteString("resource \"terraform_data\" \"r" + strconv.Itoa(n) + "\" {\n  input = \"v\"\n}\n\n")
		n++
	}
	good := b.String()
	if cuts := topLevelCuts([]byte(good), chunkedParseMin); len(cuts) < 2 {
		t.Fatalf("a %d-byte file was cut in %d places, want at least 2", len(good), len(cuts))
	}
	m, ds := LoadFiles(map[string][]byte{"main.tf": []byte(good)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if len(m.ManagedResources) != n {
		t.Fatalf("loaded %d resources, want %d", len(m.ManagedResources), n)
	}
	last := m.ManagedResources[addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r" + strconv.Itoa(n-1)}]
	if last == nil {
		t.Fatal("last resource missing")
	}
	if want := 4*(n-1) + 1; last.DeclRange.Start.Line != want {
		t.Errorf("last resource declared at line %d, want %d", last.DeclRange.Start.Line, want)
	}

	bad := good + "resource \"terraform_data\" \"broken\" {\n  input = \n}\n"
	_, ds = LoadFiles(map[string][]byte{"main.tf": []byte(bad)})
	if !ds.HasErrors() {
		t.Fatal("no error for a syntax error at the end of a large file")
	}
	if got, want := ds[0].Subject.Start.Line, 4*n+2; got != want {
		t.Errorf("syntax error reported at line %d, want %d", got, want)
	}
}

// FuzzParsePieces checks that any input either cannot be cut, or parses in
// pieces to exactly the whole parse's tree, or fails in pieces where the
// whole parse fails too.
func FuzzParsePieces(f *testing.F) {
	for _, src := range piecesSamples {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !utf8.Valid(src) {
			return // parsed whole, never cut
		}
		cuts := topLevelCuts(src, 1)
		if len(cuts) == 0 {
			return
		}
		body := parsePieces(src, "main.tf", cuts)
		whole, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
		if body == nil {
			return
		}
		if diags.HasErrors() {
			t.Fatalf("pieces at %v parsed cleanly where the whole file has errors: %s", cuts, diags.Error())
		}
		if !reflect.DeepEqual(body, whole.Body) {
			t.Fatalf("pieces at %v differ from the whole parse", cuts)
		}
	})
}
