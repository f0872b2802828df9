package getproviders

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
)

// Trust is how far a downloaded package was authenticated.
type Trust uint8

const (
	// Unauthenticated: nothing vouches for the package (a local mirror).
	Unauthenticated Trust = iota
	// VerifiedChecksum: the package matches a checksum its source listed
	// (a network mirror), but nothing signed that checksum.
	VerifiedChecksum
	// SigningSkipped: the registry listed the package's checksum in its
	// SHA256SUMS but offered no key to check the signature with.
	SigningSkipped
	// SelfSigned: the SHA256SUMS signature was made by a key the registry
	// gave for the provider, which nobody else vouches for.
	SelfSigned
	// PartnerSigned: as SelfSigned, and HashiCorp's partners key signed
	// the signing key (its trust_signature).
	PartnerSigned
	// OfficialSigned: HashiCorp's own key signed the SHA256SUMS.
	OfficialSigned
)

// String returns the words rig prints in parentheses after a package it
// installed, as Terraform prints them.
func (t Trust) String() string {
	switch t {
	case Unauthenticated:
		return "unauthenticated"
	case VerifiedChecksum:
		return "verified checksum"
	case SigningSkipped:
		return "signing skipped"
	case SelfSigned:
		return "self-signed"
	case PartnerSigned:
		return "signed by a HashiCorp partner"
	case OfficialSigned:
		return "signed by HashiCorp"
	}
	return fmt.Sprintf("Trust(%d)", uint8(t))
}

// Authentication is what the checks of a downloaded package established.
type Authentication struct {
	Trust Trust
	// KeyID is the ID of the key that signed the SHA256SUMS (16 upper-case
	// hex digits), "" unless signed.
	KeyID string
	// RegistryHashes are the zh: hashes of every file the registry's
	// SHA256SUMS lists (each platform's zip, and the release manifest, as
	// Terraform records them), when its signature was verified (or the
	// registry offered no key to verify it with); nil otherwise. They go
	// into the lock file beside the installed package's h1: hash.
	RegistryHashes []string
}

// ThirdPartySigned reports whether a key other than HashiCorp's signed the
// package (a partner or community provider): rig then prints the key ID.
func (a Authentication) ThirdPartySigned() bool {
	return a.Trust == SelfSigned || a.Trust == PartnerSigned
}

// Describe returns the parenthesized part of "- Installed P vV (…)":
// the trust, with the key ID for a third-party signature.
func (a Authentication) Describe() string {
	if a.ThirdPartySigned() {
		return a.Trust.String() + ", key ID " + a.KeyID
	}
	return a.Trust.String()
}

// The public keys Terraform trusts: HashiCorp's release key, which signs
// official providers, and the key that signs partners' keys (a registry's
// trust_signature).
var (
	//go:embed keys/hashicorp.asc
	hashicorpKey string
	//go:embed keys/hashicorp-partners.asc
	hashicorpPartnersKey string
)

// SigningKey is one key a registry offers for a provider's SHA256SUMS.
type SigningKey struct {
	ASCIIArmor     string `json:"ascii_armor"`
	TrustSignature string `json:"trust_signature"`
}

// parseSHA256Sums reads a SHA256SUMS document: "HEX  FILENAME" lines. It
// returns the sums by file name.
func parseSHA256Sums(doc []byte) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d is not \"SHA256  FILENAME\"", line)
		}
		var sum [sha256.Size]byte
		if n, err := hex.Decode(sum[:], []byte(fields[0])); err != nil || n != sha256.Size {
			return nil, fmt.Errorf("line %d has an invalid SHA-256 sum %q", line, fields[0])
		}
		out[strings.TrimPrefix(fields[1], "*")] = sum
	}
	return out, sc.Err()
}

// zhHashes returns the zh: hashes of every file a SHA256SUMS lists.
func zhHashes(sums map[string][sha256.Size]byte) []string {
	out := make([]string, 0, len(sums))
	for _, sum := range sums {
		out = append(out, hashSchemeZH+hex.EncodeToString(sum[:]))
	}
	return sortedUnique(out)
}

// SignatureError is a SHA256SUMS whose signature does not check out.
type SignatureError struct {
	// File names the signed document (its URL).
	File string
	// KeyIDs are the IDs of the keys the registry offered.
	KeyIDs []string
	// Issuer is the key ID the signature names, "" if unreadable.
	Issuer string
	// Err is the cause.
	Err error
}

func (e *SignatureError) Error() string {
	keys := strings.Join(e.KeyIDs, ", ")
	if errors.Is(e.Err, pgperrors.ErrUnknownIssuer) {
		issuer := ""
		if e.Issuer != "" {
			issuer = fmt.Sprintf(" by key ID %s", e.Issuer)
		}
		return fmt.Sprintf("the signature of %s was made%s, which is none of the keys the registry offers for the provider (key ID %s)", e.File, issuer, keys)
	}
	return fmt.Sprintf("the signature of %s does not verify with the registry's key (key ID %s): %s", e.File, keys, e.Err)
}

// checkSignature verifies the detached signature sig of doc (the
// SHA256SUMS named file) with keys and classifies the signer as Terraform
// does: HashiCorp's key, a key HashiCorp's partners key signed, or any
// other key the registry offers.
func checkSignature(file string, doc, sig []byte, keys []SigningKey) (Authentication, error) {
	var ids []string
	for _, k := range keys {
		ring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k.ASCIIArmor))
		if err != nil {
			return Authentication{}, fmt.Errorf("the registry's signing key for %s is not a readable OpenPGP key: %w", file, err)
		}
		for _, e := range ring {
			ids = append(ids, e.PrimaryKey.KeyIdString())
		}
	}
	var firstErr error
	for _, k := range keys {
		ring, _ := openpgp.ReadArmoredKeyRing(strings.NewReader(k.ASCIIArmor))
		signer, err := openpgp.CheckDetachedSignature(ring, bytes.NewReader(doc), bytes.NewReader(sig), nil)
		if errors.Is(err, pgperrors.ErrUnknownIssuer) {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if expired(err) && signer != nil {
			// The signature is good but the key has expired since: OpenTofu
			// accepts it, and so do release signatures of keys HashiCorp
			// has not yet re-published with a later expiry.
			err = nil
		}
		if err != nil || signer == nil {
			if err == nil {
				err = pgperrors.ErrUnknownIssuer
			}
			return Authentication{}, &SignatureError{File: file, KeyIDs: ids, Issuer: signatureIssuer(sig), Err: err}
		}
		auth := Authentication{Trust: SelfSigned, KeyID: signer.PrimaryKey.KeyIdString()}
		if isHashiCorpKey(signer) {
			auth.Trust = OfficialSigned
			return auth, nil
		}
		if k.TrustSignature != "" {
			if err := checkTrustSignature(k); err != nil {
				return Authentication{}, fmt.Errorf("the trust signature of the registry's key %s for %s does not verify with HashiCorp's partners key: %w", auth.KeyID, file, err)
			}
			auth.Trust = PartnerSigned
		}
		return auth, nil
	}
	if firstErr == nil {
		firstErr = pgperrors.ErrUnknownIssuer
	}
	return Authentication{}, &SignatureError{File: file, KeyIDs: ids, Issuer: signatureIssuer(sig), Err: firstErr}
}

// expired reports whether err says a key or signature has expired.
func expired(err error) bool {
	return errors.Is(err, pgperrors.ErrKeyExpired) || errors.Is(err, pgperrors.ErrSignatureExpired)
}

// isHashiCorpKey reports whether e is HashiCorp's release key: the same
// primary key (fingerprint) as the one rig embeds, whatever expiry the
// registry's copy carries.
func isHashiCorpKey(e *openpgp.Entity) bool {
	official, err := openpgp.ReadArmoredKeyRing(strings.NewReader(hashicorpKey))
	if err != nil || len(official) == 0 {
		return false
	}
	return bytes.Equal(official[0].PrimaryKey.Fingerprint, e.PrimaryKey.Fingerprint)
}

// checkTrustSignature verifies that HashiCorp's partners key signed the
// (armored) signing key k.
func checkTrustSignature(k SigningKey) error {
	partners, err := openpgp.ReadArmoredKeyRing(strings.NewReader(hashicorpPartnersKey))
	if err != nil {
		return err
	}
	key, err := armor.Decode(strings.NewReader(k.ASCIIArmor))
	if err != nil {
		return err
	}
	ts, err := armor.Decode(strings.NewReader(k.TrustSignature))
	if err != nil {
		return err
	}
	if _, err = openpgp.CheckDetachedSignature(partners, key.Body, ts.Body, nil); expired(err) {
		err = nil
	}
	return err
}

// signatureIssuer returns the key ID a detached signature names, or "".
func signatureIssuer(sig []byte) string {
	// Checking against an empty key ring reads the signature packet and
	// fails naming no entity; the issuer is in the packet, so read it with
	// a key ring that records what it is asked for.
	rec := &issuerRecorder{}
	_, _ = openpgp.CheckDetachedSignature(rec, bytes.NewReader(nil), bytes.NewReader(sig), nil)
	if rec.id == 0 {
		return ""
	}
	return fmt.Sprintf("%016X", rec.id)
}

// issuerRecorder is an empty key ring that remembers the key ID looked up.
type issuerRecorder struct{ id uint64 }

func (r *issuerRecorder) KeysById(id uint64) []openpgp.Key {
	r.id = id
	return nil
}
func (r *issuerRecorder) KeysByIdUsage(id uint64, _ byte) []openpgp.Key {
	r.id = id
	return nil
}
func (r *issuerRecorder) DecryptionKeys() []openpgp.Key { return nil }
