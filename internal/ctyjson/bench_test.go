package ctyjson

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// BenchmarkUnmarshal compares Unmarshal with go-cty's on a stored
// terraform_data object and on a flat object of primitives.
func BenchmarkUnmarshal(b *testing.B) {
	flatType := cty.Object(map[string]cty.Type{
		"id": cty.String, "name": cty.String, "count": cty.Number, "enabled": cty.Bool,
		"tags": cty.Map(cty.String), "zones": cty.List(cty.String),
	})
	flatJSON := []byte(`{"id":"i-0123456789abcdef0","name":"web-1","count":3,"enabled":true,` +
		`"tags":{"Name":"web-1","env":"prod"},"zones":["eu-west-1a","eu-west-1b"]}`)
	for _, in := range []struct {
		name string
		data []byte
		ty   cty.Type
	}{
		{"terraform_data", []byte(dataJSON), dataType},
		{"flat", flatJSON, flatType},
	} {
		for _, impl := range []struct {
			name      string
			unmarshal func([]byte, cty.Type) (cty.Value, error)
		}{
			{"ctyjson", Unmarshal},
			{"go-cty", ctyjson.Unmarshal},
		} {
			b.Run(in.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				for b.Loop() {
					if _, err := impl.unmarshal(in.data, in.ty); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkMarshal compares Marshal with go-cty's on a stored
// terraform_data object (a tuple of references inside dynamic values).
func BenchmarkMarshal(b *testing.B) {
	v, err := Unmarshal([]byte(dataJSON), dataType)
	if err != nil {
		b.Fatal(err)
	}
	for _, impl := range []struct {
		name    string
		marshal func(cty.Value, cty.Type) ([]byte, error)
	}{
		{"ctyjson", Marshal},
		{"go-cty", ctyjson.Marshal},
	} {
		b.Run("terraform_data/"+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := impl.marshal(v, dataType); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
