package lang

// Env is what the environment of one run says to every expression the run
// evaluates: terraform.workspace, path.cwd and the bound on the instances
// one resource block or module call may expand to. It is the same for the
// whole run: a command builds it once (the working directory's session)
// and passes it down, to the planner, the apply, rig test and each Scope.
type Env struct {
	// Workspace is terraform.workspace.
	Workspace string
	// Cwd is path.cwd: the absolute directory rig runs in ("" leaves
	// path.cwd empty).
	Cwd string
	// MaxInstances bounds the instances one resource block or module call
	// may expand to (EvalCount, EvalForEach); 0 means DefaultMaxInstances.
	MaxInstances int
}
