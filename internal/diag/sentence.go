package diag

import "strings"

// Sentence is s, a message fragment such as an error's or a flag's usage,
// as the sentence of a diagnostic's detail: its first letter upper case
// and a full stop at its end.
func Sentence(s string) string {
	if s == "" {
		return "."
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}
