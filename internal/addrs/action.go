package addrs

// Action is the address of an action block within its module (Terraform
// 1.14): action.TYPE.NAME.
type Action struct {
	Type, Name string
}

// String returns the address as a configuration writes it.
func (a Action) String() string { return "action." + a.Type + "." + a.Name }
