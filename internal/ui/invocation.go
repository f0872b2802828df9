package ui

import "github.com/rig-iac/rig/internal/plan"

// RenderInvocation renders an action invocation as the plan shows it
// under its change: a comment with its address, then the action block with
// its configuration, each sensitive value (marked, or declared so by the
// action's schema, which schemas gives when it is an ActionSchemaSource)
// redacted, and what apply will tell "(known after apply)".
func RenderInvocation(ai *plan.ActionInvocation, schemas SchemaSource) string {
	return renderInvocation(ai, schemas, ropts{})
}
