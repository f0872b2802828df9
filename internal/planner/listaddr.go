package planner

// listAddress is the address of a list block of a query file
// (list.TYPE.NAME), as its diagnostics name it.
type listAddress string

// String implements diag.Address.
func (a listAddress) String() string { return string(a) }
