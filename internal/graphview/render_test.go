package graphview

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/golden"
)

// TestSVG checks the static image of the example plan against its golden
// file, that it is well-formed XML and has one node group per operation.
func TestSVG(t *testing.T) {
	d := Build(exampleGraph(t), nil)
	var buf bytes.Buffer
	if err := WriteSVG(&buf, d, LayoutOf(d)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/example.svg", buf.Bytes())
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	nodes, ops := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "data-action" {
					nodes++
					if a.Value != string(ActionJunction) {
						ops++
					}
				}
			}
		}
	}
	if nodes != len(d.Nodes) || ops != 21 {
		t.Errorf("%d node groups (%d operations), want %d (21)", nodes, ops, len(d.Nodes))
	}
	if strings.Contains(buf.String(), "<script") {
		t.Error("the SVG has a script")
	}
}

// TestHTMLSelfContained checks that the page fetches nothing and carries
// the document, even with addresses that look like markup.
func TestHTMLSelfContained(t *testing.T) {
	d := doc([]string{`a["</script><script>alert(1)</script>"]`, "b"}, [2]int{0, 1})
	var buf bytes.Buffer
	if err := WriteHTML(&buf, d, LayoutOf(d)); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if n := strings.Count(html, "</script>"); n != 2 {
		t.Errorf("%d </script> tags, want 2 (the data's and the code's)", n)
	}
	for _, re := range []string{`(?i)<link\b`, `(?i)\bsrc\s*=`, `(?i)https?://`, `(?i)@import`, `(?i)\bfetch\(`} {
		if m := regexp.MustCompile(re).FindString(html); m != "" {
			t.Errorf("the page refers to something outside it: %q", m)
		}
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="graph-data">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no data script")
	}
	var got page
	if err := json.Unmarshal([]byte(m[1]), &got); err != nil {
		t.Fatalf("data: %v", err)
	}
	if got.Document.Nodes[0].Label != d.Nodes[0].Label {
		t.Errorf("label = %q, want %q", got.Document.Nodes[0].Label, d.Nodes[0].Label)
	}
}
