package plan

// DependencyMode says which resources an object records as its dependencies.
type DependencyMode uint8

const (
	// TransitiveDependencies records every resource an object depends on,
	// directly or transitively, at resource level: what OpenTofu records,
	// so that destroys stay ordered after intermediate resources are gone.
	TransitiveDependencies DependencyMode = iota
	// ReducedDependencies records only the resources an object depends on
	// directly (through local values, variables, module inputs and outputs
	// and data sources too, but not through other managed resources); apply
	// then splices a deleted resource's dependencies into its dependents'
	// lists so that the order stays right (rig.hcl's
	// recorded_dependencies = "reduced").
	ReducedDependencies
)
