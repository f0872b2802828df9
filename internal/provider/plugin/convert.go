package plugin

import (
	"errors"
	"io"
)

// The steps the two protocol versions' clients share, over the generated
// types of either.

// convertEach converts each named element of a schema response with conv:
// one that does not convert is reported to invalid, as "KIND NAME", and
// left out. The map is new and never nil.
func convertEach[S, T any](in map[string]S, kind string, conv func(S) (T, error), invalid func(what string, err error)) map[string]T {
	out := make(map[string]T, len(in))
	for name, s := range in {
		v, err := conv(s)
		if err != nil {
			invalid(kind+" "+name, err)
			continue
		}
		out[name] = v
	}
	return out
}

// receiveAll receives the messages of a server stream with recv, handing
// each to handle in turn, until the stream ends (nil) or fails (its
// error).
func receiveAll[M any](recv func() (M, error), handle func(M)) error {
	for {
		m, err := recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		handle(m)
	}
}
