package ui

// Info writes an "info" message without a type, as OpenTofu's commands
// that have no plan write what they tell people (init, get, the state and
// workspace commands).
func (v *JSONView) Info(message string) { v.emit("info", message, "", nil) }

// Warn writes a "warn" message without a type.
func (v *JSONView) Warn(message string) { v.emit("warn", message, "", nil) }

// Message writes an "info" message of type typ with fields, such as a
// "workspace_list" or a "resource_address".
func (v *JSONView) Message(message, typ string, fields map[string]any) {
	v.emit("info", message, typ, fields)
}
