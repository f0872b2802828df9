package encryption

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// version marks a payload as encrypted; OpenTofu 1.10 writes and reads "v0".
const version = "v0"

// envelope is the JSON form of encrypted data; Meta's values are the key
// providers' JSON metadata, base64-encoded as encoding/json does []byte.
type envelope struct {
	Meta    map[string][]byte `json:"meta"`
	Data    []byte            `json:"encrypted_data"`
	Version string            `json:"encryption_version"`
}

// stateHeader is what an encrypted state keeps in the clear, and checks
// against what it decrypts to.
type stateHeader struct {
	Serial  *uint64 `json:"serial"`
	Lineage string  `json:"lineage"`
}

// sealer holds the encryption key of a target's first method, derived on
// first use with a fresh salt and kept for the process's lifetime, as
// OpenTofu does.
type sealer struct {
	once sync.Once
	aead cipher.AEAD
	meta map[string][]byte
	err  error
}

// Encrypts reports whether states are written encrypted.
func (e *Encryption) Encrypts() bool {
	return e != nil && e.state != nil && e.state.methods[0].kind != unencrypted
}

// EncryptState returns the stored form of a marshalled state: an envelope
// keeping its serial and lineage in the clear, or data itself when states
// are not encrypted.
func (e *Encryption) EncryptState(data []byte) ([]byte, error) {
	if !e.Encrypts() {
		return data, nil
	}
	var h stateHeader
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("encrypting state: %w", err)
	}
	env, err := e.state.seal(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		stateHeader
		envelope
	}{h, env})
}

// DecryptState returns the marshalled state that stored data holds. Empty
// data (no state) is returned as is. Unencrypted data is accepted only
// when the state block lists the unencrypted method, or has no state block.
func (e *Encryption) DecryptState(data []byte) ([]byte, error) {
	if e == nil {
		return data, nil
	}
	return decryptState(e.state, data)
}

// DecryptRemoteState is DecryptState for a state a terraform_remote_state
// data source reads, with the remote_state_data_sources target of its key
// (the data source's address without "data.terraform_remote_state." and
// a leading "module.": "name", "net.name[0]"), else the default one.
// Without either, only an unencrypted state is read.
func (e *Encryption) DecryptRemoteState(key string, data []byte) ([]byte, error) {
	if e == nil {
		return data, nil
	}
	t, ok := e.remotes[key]
	if !ok {
		t = e.remoteDefault
	}
	return decryptState(t, data)
}

// decryptState decrypts stored state data with target t (nil: none).
func decryptState(t *target, data []byte) ([]byte, error) {
	if t == nil || len(bytes.TrimSpace(data)) == 0 {
		return data, nil
	}
	plain, err := t.open(data, func(data []byte) error {
		var probe struct {
			TerraformVersion string `json:"terraform_version"`
		}
		if err := json.Unmarshal(data, &probe); err != nil {
			return err
		}
		if probe.TerraformVersion == "" {
			return errors.New("not a state file")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var outer, inner stateHeader
	if err := json.Unmarshal(data, &outer); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(plain, &inner); err != nil {
		return nil, fmt.Errorf("decrypted state: %w", err)
	}
	if outer.Serial != nil && inner.Serial != nil && *outer.Serial != *inner.Serial {
		return nil, fmt.Errorf("invalid state metadata: serial %d outside, %d inside", *outer.Serial, *inner.Serial)
	}
	if outer.Lineage != "" && outer.Lineage != inner.Lineage {
		return nil, fmt.Errorf("invalid state metadata: lineage %s outside, %s inside", outer.Lineage, inner.Lineage)
	}
	return plain, nil
}

// EncryptPlan returns the stored form of a saved plan.
func (e *Encryption) EncryptPlan(data []byte) ([]byte, error) {
	if e == nil || e.plan == nil || e.plan.methods[0].kind == unencrypted {
		return data, nil
	}
	env, err := e.plan.seal(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(env)
}

// DecryptPlan returns the saved plan that stored data holds. Plan files
// are opaque here: anything that is not an envelope is unencrypted.
func (e *Encryption) DecryptPlan(data []byte) ([]byte, error) {
	if e == nil || e.plan == nil {
		return data, nil
	}
	return e.plan.open(data, func([]byte) error { return nil })
}

// EncryptRecord returns the stored form of one record of a state's
// journal: an envelope sealed like the state (one line of JSON), or the
// record itself when states are not encrypted.
func (e *Encryption) EncryptRecord(record []byte) ([]byte, error) {
	if !e.Encrypts() {
		return record, nil
	}
	env, err := e.state.seal(record)
	if err != nil {
		return nil, err
	}
	return json.Marshal(env)
}

// DecryptRecord returns the journal record that stored data holds. An
// unencrypted record is accepted only as an unencrypted state would be
// (no state block, or the unencrypted method among its methods).
func (e *Encryption) DecryptRecord(data []byte) ([]byte, error) {
	if e == nil || e.state == nil {
		return data, nil
	}
	return e.state.open(data, func([]byte) error { return nil })
}

// IsEncrypted reports whether data is an encrypted payload.
func IsEncrypted(data []byte) bool {
	var env envelope
	return json.Unmarshal(data, &env) == nil && env.Version != ""
}

func (t *target) seal(data []byte) (envelope, error) {
	s := &t.enc
	s.once.Do(func() {
		m := t.methods[0]
		meta, key, err := m.keys.newKey()
		if err != nil {
			s.err = err
			return
		}
		s.aead, s.err = newGCM(key)
		if s.err == nil {
			var js []byte
			js, s.err = json.Marshal(meta)
			s.meta = map[string][]byte{m.keys.metaKey: js}
		}
	})
	if s.err != nil {
		return envelope{}, fmt.Errorf("encrypting %s: %w", t.name, s.err)
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(data)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return envelope{}, fmt.Errorf("encrypting %s: generating a nonce: %w", t.name, err)
	}
	return envelope{Meta: s.meta, Data: s.aead.Seal(nonce, nonce, data, t.methods[0].aad), Version: version}, nil
}

// open decrypts an envelope with the target's methods in order, or
// accepts unencrypted data that valid accepts when a method allows it.
func (t *target) open(data []byte, valid func([]byte) error) ([]byte, error) {
	var env envelope
	err := json.Unmarshal(data, &env)
	if err != nil || env.Version == "" {
		if verr := valid(data); verr != nil {
			return nil, fmt.Errorf("decrypting %s: neither encrypted nor unencrypted %s: %w", t.name, t.name, verr)
		}
		for _, m := range t.methods {
			if m.kind == unencrypted {
				return data, nil
			}
		}
		return nil, fmt.Errorf("the %s is not encrypted, and the %s encryption configuration lists no unencrypted method to read it with; "+
			"to migrate, add a method \"unencrypted\" block and name it in a fallback block", t.name, t.name)
	}
	if env.Version != version {
		return nil, fmt.Errorf("decrypting %s: unsupported encryption version %q (want %q)", t.name, env.Version, version)
	}
	var errs []error
	for _, m := range t.methods {
		if m.kind == unencrypted {
			continue
		}
		plain, err := m.open(env)
		if err == nil {
			return plain, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", m.addr, err))
	}
	return nil, fmt.Errorf("decrypting %s failed with every method: %w", t.name, errors.Join(errs...))
}

func (m *method) open(env envelope) ([]byte, error) {
	raw, ok := env.Meta[m.keys.metaKey]
	if !ok {
		return nil, fmt.Errorf("no metadata for %s (was it encrypted with another key provider?)", m.keys.metaKey)
	}
	var meta pbkdf2Meta
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, fmt.Errorf("metadata of %s: %w", m.keys.metaKey, err)
	}
	key, err := m.keys.key(meta)
	if err != nil {
		return nil, err
	}
	if len(key) != 16 && len(key) != 24 && len(key) != 32 {
		return nil, fmt.Errorf("AES-GCM needs a 16, 24 or 32-byte key, the metadata asks for %d", len(key))
	}
	aead, err := newGCM(key)
	if err != nil {
		return nil, err
	}
	if len(env.Data) < aead.NonceSize() {
		return nil, errors.New("the encrypted data is too short (likely corrupted)")
	}
	n := aead.NonceSize()
	plain, err := aead.Open(nil, env.Data[:n], env.Data[n:], m.aad)
	if err != nil {
		return nil, fmt.Errorf("wrong passphrase or corrupted data: %w", err)
	}
	return plain, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
