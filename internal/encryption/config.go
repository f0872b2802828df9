package encryption

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Encryption is a module's encryption configuration. A nil *Encryption,
// and one without a state (or plan) target, passes that data through
// unchanged. It is safe for concurrent use.
type Encryption struct {
	state *target
	plan  *target
	// remoteDefault and remotes are the remote_state_data_sources block's
	// default and its remote_state_data_source "NAME" targets, for the
	// states terraform_remote_state reads.
	remoteDefault *target
	remotes       map[string]*target
}

// target is the state or the plan block: the method data is written with,
// then the fallbacks it may also be read with, in order.
type target struct {
	name    string // "state" or "plan"
	methods []*method
	enc     sealer // encryption key of methods[0], made once
}

// methodKind is the closed set of methods rig implements.
type methodKind uint8

const (
	aesGCM methodKind = iota + 1
	unencrypted
)

type method struct {
	kind methodKind
	addr string // method.TYPE.NAME
	keys *keyProvider
	aad  []byte
}

var encryptionSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "key_provider", LabelNames: []string{"type", "name"}},
		{Type: "method", LabelNames: []string{"type", "name"}},
		{Type: "state"},
		{Type: "plan"},
		{Type: "remote_state_data_sources"},
	},
}

var targetSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "method"}, {Name: "enforced"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
}

var fallbackSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "method", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
}

var aesGCMSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "keys", Required: true}, {Name: "aad"}},
}

// unsupported is the detail of the diagnostic for key providers and methods rig lacks.
const unsupported = "rig supports the pbkdf2 key provider and the aes_gcm and unencrypted methods; %s %q is not supported yet."

// New reads an "encryption" block; a nil block gives a nil *Encryption.
// Its arguments are evaluated statically (config.RawBlock.StaticValue):
// they may refer to variables and local values, as in OpenTofu.
func New(block *config.RawBlock) (*Encryption, diag.Diagnostics) {
	if block == nil {
		return nil, nil
	}
	content, hds := block.Body.Content(encryptionSchema)
	return decode(block.StaticValue, content, nil, diag.FromHCL(hds))
}

// decode reads an encryption block's content, its arguments evaluated by
// vals; enforcedBy are blocks (state, plan) whose enforced = true holds
// for the block of the same type in content too, and ds the diagnostics
// so far.
func decode(vals valuer, content *hcl.BodyContent, enforcedBy map[string]*hcl.Block, ds diag.Diagnostics) (*Encryption, diag.Diagnostics) {
	providers := map[string]*keyProvider{}
	methods := map[string]*method{}
	var stateBlock, planBlock, remoteBlock *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "key_provider":
			addr := "key_provider." + b.Labels[0] + "." + b.Labels[1]
			if b.Labels[0] != "pbkdf2" {
				ds = ds.Append(diag.At(b.DefRange, "Unsupported key provider", fmt.Sprintf(unsupported, "the key provider", b.Labels[0])))
				continue
			}
			if _, dup := providers[addr]; dup {
				ds = ds.Append(diag.At(b.DefRange, "Duplicate key provider", fmt.Sprintf("%s is declared twice.", addr)))
				continue
			}
			kp, more := decodePBKDF2(vals, b, addr)
			ds = ds.Append(more)
			if kp != nil {
				providers[addr] = kp
			}
		case "method":
			addr := "method." + b.Labels[0] + "." + b.Labels[1]
			if _, dup := methods[addr]; dup {
				ds = ds.Append(diag.At(b.DefRange, "Duplicate encryption method", fmt.Sprintf("%s is declared twice.", addr)))
				continue
			}
			switch b.Labels[0] {
			case "aes_gcm", "unencrypted":
				methods[addr] = nil // decoded once the key providers are known
			default:
				ds = ds.Append(diag.At(b.DefRange, "Unsupported encryption method", fmt.Sprintf(unsupported, "the method", b.Labels[0])))
			}
		case "state":
			stateBlock = b
		case "plan":
			planBlock = b
		case "remote_state_data_sources":
			remoteBlock = b
		}
	}
	if ds.HasErrors() {
		// A key provider that could not be read is not reported again
		// by each method that uses it.
		return nil, ds
	}
	for _, b := range content.Blocks {
		if b.Type != "method" {
			continue
		}
		addr := "method." + b.Labels[0] + "." + b.Labels[1]
		if m, ok := methods[addr]; !ok || m != nil {
			continue
		}
		m, more := decodeMethod(vals, b, addr, providers)
		ds = ds.Append(more)
		methods[addr] = m
	}
	if ds.HasErrors() {
		return nil, ds
	}
	e := &Encryption{}
	var more diag.Diagnostics
	if stateBlock != nil {
		e.state, more = decodeTarget(vals, stateBlock, methods, enforcedIn(vals, enforcedBy["state"]))
		ds = ds.Append(more)
	}
	if planBlock != nil {
		e.plan, more = decodeTarget(vals, planBlock, methods, enforcedIn(vals, enforcedBy["plan"]))
		ds = ds.Append(more)
	}
	if remoteBlock != nil {
		ds = ds.Append(e.decodeRemoteTargets(vals, remoteBlock, methods))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return e, ds
}

func decodeMethod(vals valuer, b *hcl.Block, addr string, providers map[string]*keyProvider) (*method, diag.Diagnostics) {
	if b.Labels[0] == "unencrypted" {
		_, hds := b.Body.Content(&hcl.BodySchema{})
		return &method{kind: unencrypted, addr: addr}, diag.FromHCL(hds)
	}
	content, hds := b.Body.Content(aesGCMSchema)
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return nil, ds
	}
	m := &method{kind: aesGCM, addr: addr}
	keys := content.Attributes["keys"]
	trav, hds := hcl.AbsTraversalForExpr(keys.Expr)
	ref := ""
	if !hds.HasErrors() && len(trav) == 3 {
		ref = trav.RootName()
		for _, step := range trav[1:] {
			if a, ok := step.(hcl.TraverseAttr); ok {
				ref += "." + a.Name
			}
		}
	}
	m.keys = providers[ref]
	if m.keys == nil {
		return nil, ds.Append(diag.At(keys.Expr.Range(), "Invalid key provider reference",
			"The keys attribute must name a declared key provider, as key_provider.pbkdf2.NAME."))
	}
	if m.keys.keyLength != 16 && m.keys.keyLength != 24 && m.keys.keyLength != 32 {
		return nil, ds.Append(diag.At(keys.Expr.Range(), "Invalid method configuration",
			fmt.Sprintf("AES-GCM requires the key length to be one of 16, 24 or 32 bytes; %s gives %d.", ref, m.keys.keyLength)))
	}
	if a, ok := content.Attributes["aad"]; ok {
		var aad []byte
		if more := decodeAttr(vals, "encryption."+addr, a, cty.List(cty.Number), &aad); more.HasErrors() {
			return nil, ds.Append(more)
		}
		m.aad = aad
	}
	return m, ds
}

// decodeTarget reads a state or plan block and its chain of fallbacks;
// enforced is true when another block enforces it already.
func decodeTarget(vals valuer, b *hcl.Block, methods map[string]*method, enforced bool) (*target, diag.Diagnostics) {
	content, hds := b.Body.Content(targetSchema)
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return nil, ds
	}
	t := &target{name: b.Type}
	if a, ok := content.Attributes["enforced"]; ok {
		var set bool
		ds = ds.Append(decodeAttr(vals, "encryption."+b.Type, a, cty.Bool, &set))
		enforced = enforced || set
	}
	if _, ok := content.Attributes["method"]; !ok {
		return nil, ds.Append(diag.At(b.DefRange, "Missing encryption method", fmt.Sprintf("The %s block must set method.", b.Type)))
	}
	for {
		a := content.Attributes["method"]
		m, more := methodRef(a, methods)
		ds = ds.Append(more)
		if m != nil {
			if m.kind == unencrypted && enforced {
				ds = ds.Append(diag.At(a.Expr.Range(), "Unencrypted method is forbidden",
					fmt.Sprintf("The %s block sets enforced = true, so it cannot use the unencrypted method.", b.Type)))
			}
			t.methods = append(t.methods, m)
		}
		switch fb := content.Blocks; len(fb) {
		case 0:
			if ds.HasErrors() {
				return nil, ds
			}
			return t, ds
		case 1:
			content, hds = fb[0].Body.Content(fallbackSchema)
			ds = ds.Append(diag.FromHCL(hds))
			if hds.HasErrors() {
				return nil, ds
			}
		default:
			return nil, ds.Append(diag.At(fb[1].DefRange, "Duplicate fallback block", "A block may have only one fallback; chain them by nesting."))
		}
	}
}

var remoteStateSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "default"}, {Type: "remote_state_data_source", LabelNames: []string{"name"}}},
}

// decodeRemoteTargets reads a remote_state_data_sources block: a default
// target and one per data source name ("name", "module.name",
// "module.name[0]", as OpenTofu names them).
func (e *Encryption) decodeRemoteTargets(vals valuer, b *hcl.Block, methods map[string]*method) diag.Diagnostics {
	content, hds := b.Body.Content(remoteStateSchema)
	ds := diag.FromHCL(hds)
	for _, rb := range content.Blocks {
		t, more := decodeTarget(vals, rb, methods, false)
		ds = ds.Append(more)
		if t == nil {
			continue
		}
		switch rb.Type {
		case "default":
			if e.remoteDefault != nil {
				ds = ds.Append(diag.At(rb.DefRange, "Duplicate default block", "A remote_state_data_sources block may have only one default block."))
			}
			t.name = "remote_state_data_sources default"
			e.remoteDefault = t
		default:
			name := rb.Labels[0]
			if e.remotes == nil {
				e.remotes = map[string]*target{}
			}
			if _, dup := e.remotes[name]; dup {
				ds = ds.Append(diag.At(rb.DefRange, "Duplicate remote_state_data_source block", fmt.Sprintf("The remote state %q has two blocks.", name)))
			}
			t.name = fmt.Sprintf("remote_state_data_source %q", name)
			e.remotes[name] = t
		}
	}
	return ds
}

func methodRef(a *hcl.Attribute, methods map[string]*method) (*method, diag.Diagnostics) {
	trav, hds := hcl.AbsTraversalForExpr(a.Expr)
	if !hds.HasErrors() && len(trav) == 3 && trav.RootName() == "method" {
		t, ok1 := trav[1].(hcl.TraverseAttr)
		n, ok2 := trav[2].(hcl.TraverseAttr)
		if ok1 && ok2 {
			addr := "method." + t.Name + "." + n.Name
			if m := methods[addr]; m != nil {
				return m, nil
			}
			return nil, diag.Diagnostics{diag.At(a.Expr.Range(), "Reference to undeclared encryption method",
				fmt.Sprintf("There is no method %q %q block declared in the encryption block.", t.Name, n.Name))}
		}
	}
	return nil, diag.Diagnostics{diag.At(a.Expr.Range(), "Invalid encryption method identifier", "Expected method of form method.<type>.<name>.")}
}

// valuer evaluates an argument of the encryption block statically, for
// what (as diagnostics name it).
type valuer func(expr hcl.Expression, what string) (cty.Value, diag.Diagnostics)

// decodeAttr evaluates an attribute of the block that what names as ty
// into the Go value out.
func decodeAttr(vals valuer, what string, a *hcl.Attribute, ty cty.Type, out any) diag.Diagnostics {
	v, ds := vals(a.Expr, what)
	if ds.HasErrors() {
		return ds
	}
	v, err := convert.Convert(v, ty)
	if err == nil && v.IsNull() {
		err = fmt.Errorf("must not be null")
	}
	if err == nil {
		err = gocty.FromCtyValue(v, out)
	}
	if err != nil {
		return diag.Diagnostics{diag.At(a.Expr.Range(), "Invalid value in encryption block", fmt.Sprintf("%s: %s.", a.Name, err))}
	}
	return nil
}
