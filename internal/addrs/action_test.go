package addrs

import "testing"

func TestParseAbsActionInstanceStr(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "action.test_log.a", want: "action.test_log.a"},
		{in: "action.test_log.a[2]", want: "action.test_log.a[2]"},
		{in: `module.m["x"].action.test_log.a["k"]`, want: `module.m["x"].action.test_log.a["k"]`},
		{in: "test_thing.a", err: `invalid action address "test_thing.a": an action address is action.TYPE.NAME, optionally with an instance key`},
		{in: "action.test_log", err: `invalid action address "action.test_log": an action address is action.TYPE.NAME, optionally with an instance key`},
		{in: "action.test_log.a.b", err: `invalid action address "action.test_log.a.b": unexpected extra operators after address`},
		{in: "action.test_log.a[", err: `invalid action address "action.test_log.a[": Index value required`},
	} {
		got, err := ParseAbsActionInstanceStr(tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case got.String() != tc.want:
			t.Errorf("%s: parsed as %s", tc.in, got)
		}
	}
}
