package plan

import "github.com/rig-iac/rig/internal/checks"

// FailedConditions counts the checkable objects (resource instances, check
// blocks, outputs, variables) whose conditions failed or could not be
// evaluated in the plan.
func (p *Plan) FailedConditions() int {
	n := 0
	for _, r := range p.Checks.Results() {
		for _, o := range r.Objects {
			if o.Status == checks.Fail || o.Status == checks.Error {
				n++
			}
		}
	}
	return n
}
