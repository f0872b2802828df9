package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Each secret is replaced by its kind's words, as OpenTofu words them; a
// text secret in two values has both kinds.
func TestRedactTextByKind(t *testing.T) {
	secrets := map[string]SecretKind{}
	AddSecrets(secrets, cty.ObjectVal(map[string]cty.Value{
		"s": cty.StringVal("sensitive-one").Mark(Sensitive),
		"e": cty.StringVal("ephemeral-one").Mark(Ephemeral),
		"b": cty.StringVal("both-one").Mark(Ephemeral),
	}))
	AddSecrets(secrets, cty.StringVal("both-one").Mark(Sensitive))
	AddSecrets(secrets, cty.StringVal("plain-one"))
	got := RedactTextByKind(`a sensitive-one, "ephemeral-one", both-one and plain-one`, secrets)
	want := `a (sensitive value), (ephemeral value), (ephemeral sensitive value) and plain-one`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := RedactText("x sensitive-one", []string{"sensitive-one"}); got != "x (sensitive value)" {
		t.Errorf("RedactText: %s", got)
	}
}
