package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// funcCase is one expression and what OpenTofu 1.10 gives for it: a value
// (compared with RawEquals, so marks and refinements count) or, when detail
// is set, an error diagnostic with that summary and detail.
type funcCase struct {
	name    string
	src     string
	want    cty.Value
	summary string
	detail  string
	// prefix compares only the start of the detail, for messages that
	// end in something that changes from run to run.
	prefix bool
}

// runFuncCases evaluates each case in s as a subtest.
func runFuncCases(t *testing.T, s *Scope, cases []funcCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := s.EvalExpr(parseExpr(t, tc.src), cty.DynamicPseudoType)
			if tc.detail != "" {
				ok := len(diags) == 1 && diags[0].Summary == tc.summary
				if ok && tc.prefix {
					ok = strings.HasPrefix(diags[0].Detail, tc.detail)
				} else if ok {
					ok = diags[0].Detail == tc.detail
				}
				if !ok {
					t.Fatalf("%s: diagnostics = %v\nwant %s: %s", tc.src, diags, tc.summary, tc.detail)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s: unexpected diagnostics: %v", tc.src, diags.Err())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\n got %#v\nwant %#v", tc.src, got, tc.want)
			}
		})
	}
}

const (
	argErr  = "Invalid function argument"
	callErr = "Error in function call"
)
