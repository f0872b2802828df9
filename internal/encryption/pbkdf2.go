package encryption

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/pbkdf2"
)

// OpenTofu's defaults and limits for the pbkdf2 key provider.
const (
	defaultKeyLength     = 32
	defaultIterations    = 600000
	defaultSaltLength    = 32
	defaultHashFunction  = "sha512"
	minimumIterations    = 200000
	minimumPassphraseLen = 16
)

var hashFunctions = map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}

// keyProvider is a pbkdf2 key provider. Derived keys are cached, since
// each derivation takes hundreds of milliseconds by design; mu guards keys.
type keyProvider struct {
	metaKey    string // where its metadata is stored in an envelope's meta
	passphrase []byte
	keyLength  int
	iterations int
	saltLength int
	hash       string

	mu   sync.Mutex
	keys map[string][]byte // by pbkdf2Meta's fields
}

// pbkdf2Meta is the key provider's metadata, stored (as JSON, fields in
// this order) beside the data it encrypted.
type pbkdf2Meta struct {
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
}

var pbkdf2Schema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "passphrase"}, {Name: "chain"}, {Name: "key_length"}, {Name: "iterations"},
		{Name: "salt_length"}, {Name: "hash_function"}, {Name: "encrypted_metadata_alias"},
	},
}

func decodePBKDF2(vals valuer, b *hcl.Block, addr string) (*keyProvider, diag.Diagnostics) {
	content, hds := b.Body.Content(pbkdf2Schema)
	ds := diag.FromHCL(hds)
	if hds.HasErrors() {
		return nil, ds
	}
	kp := &keyProvider{metaKey: addr, keyLength: defaultKeyLength, iterations: defaultIterations,
		saltLength: defaultSaltLength, hash: defaultHashFunction, keys: map[string][]byte{}}
	if a, ok := content.Attributes["chain"]; ok {
		return nil, ds.Append(diag.At(a.Expr.Range(), "Unsupported key provider chain",
			"rig supports the pbkdf2 key provider with a passphrase; chaining key providers is not supported yet."))
	}
	var passphrase string
	for name, out := range map[string]any{"passphrase": &passphrase, "key_length": &kp.keyLength, "iterations": &kp.iterations,
		"salt_length": &kp.saltLength, "hash_function": &kp.hash, "encrypted_metadata_alias": &kp.metaKey} {
		a, ok := content.Attributes[name]
		if !ok {
			continue
		}
		ty := cty.Number
		if _, isString := out.(*string); isString {
			ty = cty.String
		}
		ds = ds.Append(decodeAttr(vals, "encryption."+addr, a, ty, out))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	kp.passphrase = []byte(passphrase)
	invalid := func(detail string, args ...any) (*keyProvider, diag.Diagnostics) {
		return nil, ds.Append(diag.At(b.DefRange, "Invalid key provider configuration", addr+": "+fmt.Sprintf(detail, args...)))
	}
	switch {
	case passphrase == "":
		return invalid("no passphrase provided.")
	case len(passphrase) < minimumPassphraseLen:
		return invalid("the passphrase is too short (minimum %d characters).", minimumPassphraseLen)
	case kp.keyLength <= 0:
		return invalid("the key length must be larger than zero.")
	case kp.iterations < minimumIterations:
		return invalid("the number of iterations is dangerously low (<%d), refusing to generate key.", minimumIterations)
	case kp.saltLength <= 0:
		return invalid("the salt length must be larger than zero.")
	case hashFunctions[kp.hash] == nil:
		return invalid("invalid hash function name %q (sha256 or sha512).", kp.hash)
	case kp.metaKey == "":
		return invalid("encrypted_metadata_alias must not be empty.")
	}
	return kp, ds
}

// newKey returns a fresh salt's metadata and the key it derives.
func (kp *keyProvider) newKey() (pbkdf2Meta, []byte, error) {
	m := pbkdf2Meta{Salt: make([]byte, kp.saltLength), Iterations: kp.iterations, HashFunction: kp.hash, KeyLength: kp.keyLength}
	if _, err := rand.Read(m.Salt); err != nil {
		return m, nil, fmt.Errorf("%s: generating a salt: %w", kp.metaKey, err)
	}
	key, err := kp.key(m)
	return m, key, err
}

// key derives (or recalls) the key that metadata m describes.
func (kp *keyProvider) key(m pbkdf2Meta) ([]byte, error) {
	h := hashFunctions[m.HashFunction]
	switch {
	case h == nil:
		return nil, fmt.Errorf("%s: invalid hash function %q in the metadata", kp.metaKey, m.HashFunction)
	case len(m.Salt) == 0 || m.Iterations <= 0 || m.KeyLength <= 0:
		return nil, fmt.Errorf("%s: incomplete metadata", kp.metaKey)
	}
	id := fmt.Sprintf("%x/%d/%s/%d", m.Salt, m.Iterations, m.HashFunction, m.KeyLength)
	kp.mu.Lock()
	defer kp.mu.Unlock()
	if k, ok := kp.keys[id]; ok {
		return k, nil
	}
	k := pbkdf2.Key(kp.passphrase, m.Salt, m.Iterations, m.KeyLength, h)
	kp.keys[id] = k
	return k, nil
}
