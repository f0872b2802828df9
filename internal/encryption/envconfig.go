package encryption

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// EnvName is the environment variable whose value adds to, or overrides,
// the configuration's encryption block, as in OpenTofu.
const EnvName = "TF_ENCRYPTION"

// NewWithEnv is New for block (nil when the configuration has none) of
// module mod (nil when there is no configuration) and env, the value of
// TF_ENCRYPTION: the body of an encryption block, in
// HCL or, when it starts with "{", JSON. Its key_provider and method
// blocks add to the configuration's, or override the arguments of the one
// of the same type and name; its state, plan and remote_state_data_sources
// blocks override the arguments and fallback of the configuration's, and
// enforced = true in either holds. Its expressions may refer to the
// module's variables and locals, as the block's may.
func NewWithEnv(block *config.RawBlock, mod *config.Module, env string) (*Encryption, diag.Diagnostics) {
	env = strings.TrimSpace(env)
	if env == "" {
		return New(block)
	}
	var file *hcl.File
	var hds hcl.Diagnostics
	if env[0] == '{' {
		file, hds = hcljson.Parse([]byte(env), EnvName)
	} else {
		file, hds = hclsyntax.ParseConfig([]byte(env), EnvName, hcl.InitialPos)
	}
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return nil, ds
	}
	over, hds := file.Body.Content(encryptionSchema)
	ds = ds.Append(diag.FromHCL(hds))
	vals := valuer(constantValue)
	if mod != nil {
		vals = func(expr hcl.Expression, what string) (cty.Value, diag.Diagnostics) {
			return mod.StaticValue(expr, what, true)
		}
	}
	base := &hcl.BodyContent{}
	if block != nil {
		vals = block.StaticValue
		base, hds = block.Body.Content(encryptionSchema)
		ds = ds.Append(diag.FromHCL(hds))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	enforcedBy := map[string]*hcl.Block{}
	for _, b := range base.Blocks {
		if b.Type == "state" || b.Type == "plan" {
			enforcedBy[b.Type] = b
		}
	}
	return decode(vals, mergeContent(base, over), enforcedBy, ds)
}

// mergeContent is base with the blocks of over merged in: a block of the
// same type and labels as one of base's overrides its arguments and
// nested blocks (config.OverriddenBody); any other is added.
func mergeContent(base, over *hcl.BodyContent) *hcl.BodyContent {
	merged := &hcl.BodyContent{Attributes: base.Attributes, MissingItemRange: base.MissingItemRange}
	merged.Blocks = slices.Clone(base.Blocks)
	for _, ob := range over.Blocks {
		i := slices.IndexFunc(merged.Blocks, func(b *hcl.Block) bool {
			return b.Type == ob.Type && slices.Equal(b.Labels, ob.Labels)
		})
		if i < 0 {
			merged.Blocks = append(merged.Blocks, ob)
			continue
		}
		b := *merged.Blocks[i]
		b.Body = config.OverriddenBody{Base: b.Body, Override: ob.Body}
		merged.Blocks[i] = &b
	}
	return merged
}

// enforcedIn reports whether block b (nil for none) sets enforced = true.
func enforcedIn(vals valuer, b *hcl.Block) bool {
	if b == nil {
		return false
	}
	content, _, hds := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enforced"}}})
	a, ok := content.Attributes["enforced"]
	if hds.HasErrors() || !ok {
		return false
	}
	var on bool
	if ds := decodeAttr(vals, "encryption."+b.Type, a, cty.Bool, &on); ds.HasErrors() {
		return false
	}
	return on
}

// constantValue evaluates an expression that may refer to nothing: that
// of TF_ENCRYPTION without a configuration.
func constantValue(expr hcl.Expression, _ string) (cty.Value, diag.Diagnostics) {
	v, hds := expr.Value(nil)
	return v, diag.FromHCL(hds)
}
