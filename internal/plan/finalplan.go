package plan

import (
	"crypto/sha256"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ConfigDigest identifies a configuration value sent to a provider with
// PlanResourceChange: the SHA-256 of its JSON with its type. It returns nil
// for a value with unknowns (or one that cannot be encoded), which no digest
// stands for.
func ConfigDigest(config cty.Value) []byte {
	config, _ = config.UnmarkDeep()
	if !config.IsWhollyKnown() {
		return nil
	}
	b, err := ctyjson.Marshal(config, cty.DynamicPseudoType)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// IsFinal reports whether the change's planned object is the final one: it
// has no unknown values and its configuration digest was recorded, so an
// apply whose configuration evaluates to the same value may send it to
// ApplyResourceChange without planning again (docs/design.md §10).
func (c *ResourceInstanceChange) IsFinal() bool {
	return c.ConfigDigest != nil
}
