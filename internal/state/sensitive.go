package state

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// SensitivePathsJSON encodes attribute paths as the sensitive_attributes
// of a v4 state instance: a list of paths, each a list of steps
// {"type":"get_attr","value":NAME} or {"type":"index","value":{"value":KEY,"type":TYPE}}.
// No paths encode as nil (written as []).
func SensitivePathsJSON(paths []cty.Path) (json.RawMessage, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, p := range paths {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j, step := range p {
			if j > 0 {
				b.WriteByte(',')
			}
			switch s := step.(type) {
			case cty.GetAttrStep:
				name, _ := json.Marshal(s.Name)
				b.WriteString(`{"type":"get_attr","value":`)
				b.Write(name)
				b.WriteByte('}')
			case cty.IndexStep:
				val, err := ctyjson.Marshal(s.Key, s.Key.Type())
				if err != nil {
					return nil, fmt.Errorf("encoding sensitive path: %w", err)
				}
				ty, err := ctyjson.MarshalType(s.Key.Type())
				if err != nil {
					return nil, fmt.Errorf("encoding sensitive path: %w", err)
				}
				b.WriteString(`{"type":"index","value":{"value":`)
				b.Write(val)
				b.WriteString(`,"type":`)
				b.Write(ty)
				b.WriteString(`}}`)
			default:
				return nil, fmt.Errorf("encoding sensitive path: unsupported step %T", step)
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return json.RawMessage(b.Bytes()), nil
}

// ParseSensitivePaths decodes the sensitive_attributes of a v4 state
// instance (as SensitivePathsJSON writes them) into attribute paths.
func ParseSensitivePaths(raw json.RawMessage) ([]cty.Path, error) {
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || string(trimmed) == "[]" {
		return nil, nil
	}
	var steps [][]struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, fmt.Errorf("decoding sensitive_attributes: %w", err)
	}
	paths := make([]cty.Path, 0, len(steps))
	for _, p := range steps {
		path := make(cty.Path, 0, len(p))
		for _, s := range p {
			switch s.Type {
			case "get_attr":
				var name string
				if err := json.Unmarshal(s.Value, &name); err != nil {
					return nil, fmt.Errorf("decoding sensitive_attributes: %w", err)
				}
				path = append(path, cty.GetAttrStep{Name: name})
			case "index":
				var key struct {
					Value json.RawMessage `json:"value"`
					Type  json.RawMessage `json:"type"`
				}
				if err := json.Unmarshal(s.Value, &key); err != nil {
					return nil, fmt.Errorf("decoding sensitive_attributes: %w", err)
				}
				ty, err := ctyjson.UnmarshalType(key.Type)
				if err != nil {
					return nil, fmt.Errorf("decoding sensitive_attributes: %w", err)
				}
				v, err := ctyjson.Unmarshal(key.Value, ty)
				if err != nil {
					return nil, fmt.Errorf("decoding sensitive_attributes: %w", err)
				}
				path = append(path, cty.IndexStep{Key: v})
			default:
				return nil, fmt.Errorf("decoding sensitive_attributes: unknown step type %q", s.Type)
			}
		}
		paths = append(paths, path)
	}
	return paths, nil
}
