// Package graphview owns the pictures of a graph that `rig graph -format=html`
// and `-format=svg` write: the page's input document (Build, FromResources;
// BuildWith and Extend add action invocations and the opening and closing
// of ephemeral resources as nodes of their own), its layered layout (Layout: longest-path layers, barycenter ordering,
// one band per module), a self-contained interactive HTML page drawn on a
// canvas, and a static SVG of the same layout; WriteFormat chooses between
// them and the text formats (DOT, Mermaid) as -format says.
//
// It imports internal/addrs, internal/apply, internal/dag and internal/plan.
package graphview
