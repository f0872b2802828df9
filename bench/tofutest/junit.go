package tofutest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// JUnitShape reduces a JUnit XML report to its outline, one element a
// line, indented by depth: each element with its attributes but the times
// (time, timestamp), and no text: what two tools' reports of the same
// suite must share.
func JUnitShape(report []byte) (string, error) {
	dec := xml.NewDecoder(bytes.NewReader(report))
	var b strings.Builder
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			return "", fmt.Errorf("reading the JUnit report: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			b.WriteString(strings.Repeat("  ", depth) + t.Name.Local)
			for _, a := range t.Attr {
				if a.Name.Local == "time" || a.Name.Local == "timestamp" {
					continue
				}
				fmt.Fprintf(&b, " %s=%q", a.Name.Local, a.Value)
			}
			b.WriteString("\n")
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return b.String(), nil
}
