package workdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	httpbackend "github.com/rig-iac/rig/internal/backend/http"
	"github.com/rig-iac/rig/internal/backend/s3"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// A backend setting is held as a string in a backendSpec, whatever its
// type: a boolean as "true"/"false", a number as its decimal text, a map of
// strings as its JSON object text (keys sorted, as encoding/json writes
// them), a set, list or object as its JSON (go-cty's, an object with every
// attribute of its type, null where not set). Its type says how it is written in the backend record, hashed,
// and checked.

// settingTypes gives the type of each setting that is neither a string nor
// a boolean (backendSettings says which are booleans), per backend type.
var settingTypes = map[string]map[string]cty.Type{
	"http": httpSettingTypes(),
	"s3":   s3.Schema,
}

func httpSettingTypes() map[string]cty.Type {
	m := map[string]cty.Type{}
	for name := range httpbackend.NumberSettings {
		m[name] = cty.Number
	}
	for name := range httpbackend.MapSettings {
		m[name] = cty.Map(cty.String)
	}
	return m
}

func httpSettings() map[string]bool {
	m := map[string]bool{}
	for name := range httpbackend.EnvVars {
		m[name] = httpbackend.BoolSettings[name]
	}
	return m
}

// settingType is the type of setting name of backend type typ.
func settingType(typ, name string) cty.Type {
	if t, ok := settingTypes[typ][name]; ok {
		return t
	}
	if backendSettings[typ][name] {
		return cty.Bool
	}
	return cty.String
}

// settingString converts a value given for a setting of type want to the
// string a backendSpec holds.
func settingString(v cty.Value, want cty.Type) (string, error) {
	what := "must be a string"
	switch {
	case want == cty.Bool:
		what = "must be a boolean"
	case want == cty.Number:
		what = "must be a number"
	case want.IsMapType():
		what = "must be a map of strings"
	case want.IsSetType() || want.IsListType() || want.IsObjectType():
		return structuredSettingString(v, want)
	}
	if v.IsNull() || !v.IsWhollyKnown() {
		return "", errors.New(what)
	}
	v, err := convert.Convert(v, want)
	if err != nil || v.IsNull() {
		return "", errors.New(what)
	}
	switch {
	case want == cty.Bool:
		return strconv.FormatBool(v.True()), nil
	case want == cty.Number:
		return v.AsBigFloat().Text('f', -1), nil
	case want.IsMapType():
		m := map[string]string{}
		for k, e := range v.AsValueMap() {
			if e.IsNull() {
				return "", errors.New(what)
			}
			m[k] = e.AsString()
		}
		data, err := json.Marshal(m)
		return string(data), err
	}
	return v.AsString(), nil
}

// parseSetting checks a setting's string form (a -backend-config KEY=VALUE
// value, or a record's) against its type and returns its canonical form.
func parseSetting(s string, want cty.Type) (string, error) {
	switch {
	case want == cty.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return "", fmt.Errorf("must be a boolean, not %q", s)
		}
		return strconv.FormatBool(b), nil
	case want == cty.Number:
		v, err := cty.ParseNumberVal(s)
		if err != nil {
			return "", fmt.Errorf("must be a number, not %q", s)
		}
		return v.AsBigFloat().Text('f', -1), nil
	case want.IsMapType():
		var m map[string]string
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return "", errors.New("must be a map of strings, given in a file of settings")
		}
		data, err := json.Marshal(m)
		return string(data), err
	case want.IsSetType() || want.IsListType() || want.IsObjectType():
		// An expression, as in the block: ["a", "b"], { s3 = "…" }.
		expr, hds := hclsyntax.ParseExpression([]byte(s), "<value>", hcl.InitialPos)
		if hds.HasErrors() {
			return "", fmt.Errorf("must be %s, written as in the backend block: %s", want.FriendlyName(), hds.Error())
		}
		v, hds := expr.Value(nil)
		if hds.HasErrors() {
			return "", fmt.Errorf("must be %s, written as in the backend block: %s", want.FriendlyName(), hds.Error())
		}
		return structuredSettingString(v, want)
	}
	return s, nil
}

// structuredSettingString is settingString for a set, list or object: the
// value's JSON in type want. An object may leave attributes out, but not
// have one want lacks.
func structuredSettingString(v cty.Value, want cty.Type) (string, error) {
	what := "must be " + want.FriendlyName()
	if v.IsNull() || !v.IsWhollyKnown() {
		return "", errors.New(what)
	}
	target := want
	if want.IsObjectType() {
		if vt := v.Type(); vt.IsObjectType() || vt.IsMapType() {
			for it := v.ElementIterator(); it.Next(); {
				k, _ := it.Element()
				if !want.HasAttribute(k.AsString()) {
					return "", fmt.Errorf("%s: it has no attribute %q", what, k.AsString())
				}
			}
		}
		target = cty.ObjectWithOptionalAttrs(want.AttributeTypes(), slices.Collect(maps.Keys(want.AttributeTypes())))
	}
	v, err := convert.Convert(v, target)
	if err != nil {
		return "", fmt.Errorf("%s: %s", what, err)
	}
	data, err := ctyjson.Marshal(v, want)
	if err != nil {
		return "", fmt.Errorf("%s: %s", what, err)
	}
	return string(data), nil
}

// settingValue is the cty value of a setting's string form, as the tools
// decode it for the backend hash; a string that does not parse (which
// blockSpec never produces) gives an unknown value.
func settingValue(s string, want cty.Type) cty.Value {
	switch {
	case want == cty.Bool:
		return cty.BoolVal(s == "true")
	case want == cty.Number:
		v, err := cty.ParseNumberVal(s)
		if err != nil {
			return cty.UnknownVal(cty.Number)
		}
		return v
	case want.IsMapType():
		var m map[string]string
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return cty.UnknownVal(want)
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.String)
		}
		vals := make(map[string]cty.Value, len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			vals[k] = cty.StringVal(m[k])
		}
		return cty.MapVal(vals)
	case want.IsSetType() || want.IsListType() || want.IsObjectType():
		v, err := ctyjson.Unmarshal([]byte(s), want)
		if err != nil {
			return cty.UnknownVal(want)
		}
		return v
	}
	return cty.StringVal(s)
}

// recordJSON is a setting's value in the backend record's config object.
func recordJSON(s string, want cty.Type) any {
	switch {
	case want == cty.Bool:
		return s == "true"
	case want == cty.Number:
		return json.Number(s)
	case want.IsMapType():
		return json.RawMessage(s)
	}
	return s
}

// recordString is the string form of a value read from the backend
// record's config object (decoded with json.Decoder.UseNumber) for a
// setting of type want; ok is false for a null.
func recordString(v any, want cty.Type) (s string, ok bool, err error) {
	if v != nil && (want.IsSetType() || want.IsListType() || want.IsObjectType()) {
		// In want, the attributes a tool left out null.
		data, err := json.Marshal(v)
		if err != nil {
			return "", false, err
		}
		val, err := ctyjson.Unmarshal(data, want)
		if err != nil {
			return "", false, err
		}
		data, err = ctyjson.Marshal(val, want)
		return string(data), true, err
	}
	switch v := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	case bool:
		return strconv.FormatBool(v), true, nil
	case json.Number:
		return v.String(), true, nil
	case map[string]any:
		m := make(map[string]string, len(v))
		for k, e := range v {
			es, isStr := e.(string)
			if !isStr {
				return "", false, fmt.Errorf("%q is not a string", k)
			}
			m[k] = es
		}
		data, err := json.Marshal(m)
		return string(data), true, err
	}
	return "", false, fmt.Errorf("unexpected value %v", v)
}
