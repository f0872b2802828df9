package apply

import (
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// impliedType returns the type a JSON document implies, for values recorded
// without a schema at hand.
func impliedType(raw []byte) (cty.Type, error) {
	return ctyjson.ImpliedType(raw)
}
