package jsonformat

import "encoding/json"

// The messages of the -json stream, as OpenTofu writes them (UI version
// 1.2), and the diagnostics they and `validate -json` carry.

// ResourceAddr names a resource instance in the -json stream's messages.
type ResourceAddr struct {
	Addr            string          `json:"addr"`
	Module          string          `json:"module"`
	Resource        string          `json:"resource"`
	ImpliedProvider string          `json:"implied_provider"`
	ResourceType    string          `json:"resource_type"`
	ResourceName    string          `json:"resource_name"`
	ResourceKey     json.RawMessage `json:"resource_key"`
}

// PlannedChange is the change of a planned_change or resource_drift message.
type PlannedChange struct {
	Resource ResourceAddr `json:"resource"`
	Action   string       `json:"action"`
	Reason   string       `json:"reason,omitempty"`
}

// ChangeSummary is the change_summary message's counts.
type ChangeSummary struct {
	Add    int `json:"add"`
	Change int `json:"change"`
	Import int `json:"import"`
	Remove int `json:"remove"`
	Forget int `json:"forget"`
	// ActionInvocation and ActionFail count the actions planned or
	// invoked and those that failed (Terraform 1.14); left out when the
	// configuration runs no action.
	ActionInvocation *int   `json:"action_invocation,omitempty"`
	ActionFail       *int   `json:"action_fail,omitempty"`
	Operation        string `json:"operation"`
}

// OperationHook is the hook of the apply_* messages.
type OperationHook struct {
	Resource ResourceAddr `json:"resource"`
	Action   string       `json:"action"`
	IDKey    string       `json:"id_key,omitempty"`
	IDValue  string       `json:"id_value,omitempty"`
	Elapsed  *float64     `json:"elapsed_seconds,omitempty"`
}

// ProvisionHook is the hook of the provision_* messages; Output only in
// provision_progress.
type ProvisionHook struct {
	Resource    ResourceAddr `json:"resource"`
	Provisioner string       `json:"provisioner"`
	Output      *string      `json:"output,omitempty"`
}

// OutputValue is a root output in the outputs message: its type and
// value (left out when sensitive), or its planned action.
type OutputValue struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Action    string          `json:"action,omitempty"`
}

// Pos is a position in a source file.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Range is a source range of a Diagnostic (or a Trigger).
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Diagnostic is a diagnostic as the -json stream and `validate -json` write it.
type Diagnostic struct {
	Severity string   `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail"`
	Address  string   `json:"address,omitempty"`
	Range    *Range   `json:"range,omitempty"`
	Snippet  *Snippet `json:"snippet,omitempty"`
	// Difference is the two sides of a failed equality (OpenTofu 1.12):
	// the left one before, the right one after.
	Difference *Change `json:"difference,omitempty"`
}

// Snippet is a diagnostic's source excerpt, in the shape of the JSON
// diagnostic's "snippet" object.
type Snippet struct {
	Context              *string           `json:"context"`
	Code                 string            `json:"code"`
	StartLine            int               `json:"start_line"`
	HighlightStartOffset int               `json:"highlight_start_offset"`
	HighlightEndOffset   int               `json:"highlight_end_offset"`
	Values               []ExpressionValue `json:"values"`
	// FunctionCall is the function whose call failed, when the
	// diagnostic is about one.
	FunctionCall *FunctionCall `json:"function_call,omitempty"`
}

// ExpressionValue is an expression value shown with a snippet: a reference
// and what its value is ("is \"x\"", "has a sensitive value").
type ExpressionValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// RefreshHook is the hook of the refresh_* messages.
type RefreshHook struct {
	Resource ResourceAddr `json:"resource"`
	IDKey    string       `json:"id_key,omitempty"`
	IDValue  string       `json:"id_value,omitempty"`
}

// Validation is the document `validate -json` prints: validity, counts,
// and the diagnostics with their source snippets.
type Validation struct {
	FormatVersion string       `json:"format_version"`
	Valid         bool         `json:"valid"`
	ErrorCount    int          `json:"error_count"`
	WarningCount  int          `json:"warning_count"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
}
