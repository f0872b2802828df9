package ui

import "github.com/rig-iac/rig/internal/plan"

// primNode is a node of a primitive value together with its renderer, so
// that the leaves of a diff tree, most of its nodes, take one allocation
// each rather than two (the node, and the renderer put in its interface).
type primNode struct {
	n node
	r primR
}

// newPrimNode returns a node of action that renders r.
func newPrimNode(action plan.Action, replace bool, r primR) *node {
	p := &primNode{r: r}
	p.n = node{action: action, replace: replace, r: &p.r}
	return &p.n
}
