package state

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestDecodeToleratesNewerNullAttributes: an object recorded by a newer
// provider with an attribute the schema lacks decodes when that attribute
// is null (Terraform 1.16's terraform_data records "store": null), and is
// refused when it holds a value.
func TestDecodeToleratesNewerNullAttributes(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType})
	tests := []struct {
		name, attrs string
		wantErr     string
	}{
		{"same attributes", `{"id":"a","input":null}`, ""},
		{"newer null attribute", `{"id":"a","input":null,"store":null}`, ""},
		{"newer attribute with a value", `{"id":"a","input":null,"store":{"x":1}}`, `unsupported attribute "store"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := (&Object{AttrsJSON: []byte(tt.attrs)}).Decode(ty)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Decode: %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if got := v.GetAttr("id"); !got.RawEquals(cty.StringVal("a")) {
				t.Errorf("id = %#v", got)
			}
		})
	}
}
