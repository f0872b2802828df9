package planner

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

// With a planned identity, only an object that has it can be the create's:
// exact when it also has every planned value, half-made (an inexact
// identity match) when not; an object with another identity is at most a
// near candidate, whatever values it has. Without one, the planned values
// alone decide, as before.
func TestJudgeByPlannedIdentity(t *testing.T) {
	idType := cty.Object(map[string]cty.Type{"id": cty.String, "region": cty.String})
	identity := func(id string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "region": cty.StringVal("eu")})
	}
	planned := map[string]cty.Value{"content": cty.StringVal("aye")}
	raw := map[string]json.RawMessage{"content": json.RawMessage(`"aye"`)}
	object := func(id, content string) provider.ListedObject {
		return provider.ListedObject{Identity: identity(id), Resource: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "content": cty.StringVal(content)})}
	}
	// The create recorded only the identity's known attribute, id.
	withIdentity := plannedIdentitySearch{identity: map[string]cty.Value{"id": cty.StringVal("alpha")}}
	tests := []struct {
		name            string
		search          plannedIdentitySearch
		object          provider.ListedObject
		exact, identity bool
	}{
		{"planned identity and values", withIdentity, object("alpha", "aye"), true, true},
		{"planned identity, other values", withIdentity, object("alpha", ""), false, true},
		{"planned values, another identity", withIdentity, object("other", "aye"), false, false},
		{"no identity listed", withIdentity, provider.ListedObject{Identity: cty.NullVal(idType), Resource: object("alpha", "aye").Resource}, false, false},
		{"no planned identity: the values decide", plannedIdentitySearch{}, object("other", "aye"), true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.search.judge(compareCandidate(tt.object, "x", planned, raw, false), tt.object)
			if c.Exact != tt.exact || c.IdentityMatch != tt.identity {
				t.Errorf("exact %v, identity match %v; want %v, %v", c.Exact, c.IdentityMatch, tt.exact, tt.identity)
			}
		})
	}
}
