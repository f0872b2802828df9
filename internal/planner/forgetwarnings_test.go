package planner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestForgetWarningsInAddressOrder: the warnings of a plan that forgets
// many objects come in the order of their addresses (numeric index order),
// whatever order the objects were planned in, so that two runs of one plan
// print the same.
func TestForgetWarningsInAddressOrder(t *testing.T) {
	const n = 12
	var cfg, res, want []string
	for i := range n {
		name := fmt.Sprintf("r%02d", i)
		cfg = append(cfg, fmt.Sprintf("resource \"test_thing\" %q {\n  count = 0\n  key   = \"k\"\n  lifecycle {\n    destroy = false\n  }\n}\n", name))
		res = append(res, fmt.Sprintf(`{"mode": "managed", "type": "test_thing", "name": %q, "each": "list", "provider": "provider[\"registry.terraform.io/hashicorp/test\"]",
     "instances": [{"index_key": 0, "schema_version": 0, "attributes": {"id": "id-%d", "key": "k"}}, {"index_key": 1, "schema_version": 0, "attributes": {"id": "id-%d-1", "key": "k"}}]}`, name, i, i))
		want = append(want, fmt.Sprintf("test_thing.%s[0]", name), fmt.Sprintf("test_thing.%s[1]", name))
	}
	src := "-- main.tf --\n" + strings.Join(cfg, "") + `-- state.json --
{
  "version": 4, "terraform_version": "1.10.0", "serial": 3, "lineage": "0c1b7d0e-1111-4222-8333-444455556666",
  "outputs": {},
  "resources": [
` + strings.Join(res, ",\n") + `
  ]
}
`
	for run := range 5 {
		fx := loadFixture(t, txtar.Parse([]byte(src)))
		_, ds := makePlan(t, fx)
		if ds.HasErrors() {
			t.Fatalf("plan: %v", ds.Err())
		}
		var got []string
		for _, d := range ds {
			if d.Summary == "Resource will be removed from the state" {
				addr, _, _ := strings.Cut(strings.TrimPrefix(d.Detail, "After this plan is applied, the resource "), " ")
				got = append(got, addr)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run %d: warnings for %v, want %v", run, got, want)
		}
	}
}
