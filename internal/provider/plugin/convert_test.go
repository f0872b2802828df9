package plugin

import (
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConvertEachLeavesOutWhatDoesNotConvert(t *testing.T) {
	in := map[string]string{"a": "1", "b": "x", "c": "3"}
	var reported []string
	got := convertEach(in, "resource type", strconv.Atoi, func(what string, err error) { reported = append(reported, what) })
	if diff := cmp.Diff(map[string]int{"a": 1, "c": 3}, got); diff != "" {
		t.Errorf("converted (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"resource type b"}, reported); diff != "" {
		t.Errorf("reported invalid (-want +got):\n%s", diff)
	}
	if got := convertEach(map[string]string(nil), "function", strconv.Atoi, nil); got == nil || len(got) != 0 {
		t.Errorf("convertEach of nothing = %#v, want an empty map", got)
	}
}

func TestReceiveAll(t *testing.T) {
	broken := errors.New("connection reset")
	tests := []struct {
		name    string
		end     error
		wantErr error
	}{
		{"stream ends", io.EOF, nil},
		{"stream fails", broken, broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []string{"one", "two"}
			recv := func() (string, error) {
				if len(msgs) == 0 {
					return "", tt.end
				}
				m := msgs[0]
				msgs = msgs[1:]
				return m, nil
			}
			var got []string
			err := receiveAll(recv, func(m string) { got = append(got, m) })
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("receiveAll = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff([]string{"one", "two"}, got); diff != "" {
				t.Errorf("handled (-want +got):\n%s", diff)
			}
		})
	}
}
