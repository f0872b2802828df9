package getproviders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestCheckSignature classifies signers as Terraform does. The official
// case is the published SHA256SUMS of hashicorp/null 3.1.0 with the
// signature HashiCorp released it with.
func TestCheckSignature(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("testdata", "null-3.1.0", "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(filepath.Join("testdata", "null-3.1.0", "SHA256SUMS.sig"))
	if err != nil {
		t.Fatal(err)
	}
	author := registrytest.NewKey(t, "author")
	authorKey := SigningKey{ASCIIArmor: registrytest.ArmoredPublicKey(t, author)}
	tests := []struct {
		name     string
		doc, sig []byte
		keys     []SigningKey
		want     string // Describe(), or the error's text
		wantErr  bool
	}{
		{name: "HashiCorp's key", doc: doc, sig: sig, keys: []SigningKey{{ASCIIArmor: hashicorpKey}}, want: "signed by HashiCorp"},
		{name: "HashiCorp's key among others", doc: doc, sig: sig, keys: []SigningKey{authorKey, {ASCIIArmor: hashicorpKey}}, want: "signed by HashiCorp"},
		{name: "a changed document", doc: append([]byte("x"), doc...), sig: sig, keys: []SigningKey{{ASCIIArmor: hashicorpKey}}, wantErr: true,
			want: "the signature of SHA256SUMS does not verify with the registry's key (key ID 34365D9472D7468F)"},
		{name: "a key the registry does not offer", doc: doc, sig: sig, keys: []SigningKey{authorKey}, wantErr: true,
			want: "the signature of SHA256SUMS was made by key ID B0B441097685B676, which is none of the keys the registry offers for the provider (key ID " + author.PrimaryKey.KeyIdString() + ")"},
		{name: "an unreadable key", doc: doc, sig: sig, keys: []SigningKey{{ASCIIArmor: "not a key"}}, wantErr: true,
			want: "the registry's signing key for SHA256SUMS is not a readable OpenPGP key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			auth, err := checkSignature("SHA256SUMS", tc.doc, tc.sig, tc.keys)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := auth.Describe(); got != tc.want {
				t.Errorf("Describe() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTrustString(t *testing.T) {
	tests := []struct {
		auth Authentication
		want string
	}{
		{Authentication{Trust: Unauthenticated}, "unauthenticated"},
		{Authentication{Trust: VerifiedChecksum}, "verified checksum"},
		{Authentication{Trust: SigningSkipped}, "signing skipped"},
		{Authentication{Trust: SelfSigned, KeyID: "ABCD"}, "self-signed, key ID ABCD"},
		{Authentication{Trust: PartnerSigned, KeyID: "ABCD"}, "signed by a HashiCorp partner, key ID ABCD"},
		{Authentication{Trust: OfficialSigned, KeyID: "34365D9472D7468F"}, "signed by HashiCorp"},
	}
	for _, tc := range tests {
		if got := tc.auth.Describe(); got != tc.want {
			t.Errorf("%v: Describe() = %q, want %q", tc.auth.Trust, got, tc.want)
		}
	}
}

func TestParseSHA256Sums(t *testing.T) {
	sums, err := parseSHA256Sums([]byte("fea4227271ebf7d9e2b61b89ce2328c7262acd9fd190e1fd6d15a591abfa848e  a.zip\n\n53e30545ff8926a8e30ad30648991ca8b93b6fa496272cd23b26763c8ee84515 *b.zip\n"))
	if err != nil || len(sums) != 2 {
		t.Fatalf("sums = %v, %v", sums, err)
	}
	if _, ok := sums["b.zip"]; !ok {
		t.Errorf("a binary-mode name is not read: %v", sums)
	}
	for _, bad := range []string{"xyz  a.zip\n", "fea4227271ebf7d9e2b61b89ce2328c7262acd9fd190e1fd6d15a591abfa848e\n"} {
		if _, err := parseSHA256Sums([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
