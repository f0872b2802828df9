package graphview

// The kinds of work that run beside the operations: the graph draws
// action invocations and the opening and closing of ephemeral resources
// as nodes of their own; the timeline draws these, renewals and health
// gate checks as bars.
const (
	// ActionInvoke runs an action: an action_trigger entry fired by a
	// change, or an action -invoke names.
	ActionInvoke Action = "invoke-action"
	// ActionOpenEphemeral opens an ephemeral resource, before the first
	// operation that uses it.
	ActionOpenEphemeral Action = "open-ephemeral"
	// ActionRenewEphemeral renews an open ephemeral resource instance.
	ActionRenewEphemeral Action = "renew-ephemeral"
	// ActionCloseEphemeral closes an ephemeral resource, after the last
	// operation that uses it.
	ActionCloseEphemeral Action = "close-ephemeral"
	// ActionGateCheck is one check of a new object held at its health
	// gate: the data sources its postconditions refer to read again, the
	// object read again, its postconditions evaluated.
	ActionGateCheck Action = "gate-check"
)
