// Package dag owns the generic directed graph Graph[K] that orders work:
// nodes are comparable keys, and an edge from → to means "from must finish
// before to starts".
//
// The package knows nothing about what the keys are. It offers:
//
//   - building and editing a graph (Add, Connect, RemoveEdge, Remove) with
//     deterministic, insertion-ordered results from every query;
//   - cycle detection by Tarjan's strongly connected components, each cycle
//     reported as a concrete path (Cycles, CycleError, FormatCycle);
//   - topological order and parallel waves (TopoOrder, Waves);
//   - transitive reduction (TransitiveReduction, Reduced), copying and
//     reversing (Copy, Reverse);
//   - a bounded parallel walk that stops below failures and on cancellation
//     (Walk, WalkOptions, WalkResult);
//   - Graphviz output (DOT).
//
// Every algorithm is O(N + E) or O((N + E) log N) on sparse graphs, except
// transitive reduction whose cost is documented on TransitiveReduction.
// Internally nodes are dense int32 ids in insertion order and adjacency lists
// are []int32 slices, so graphs of a million nodes stay cheap.
//
// A Graph is not safe for concurrent mutation. Methods that only read (every
// method except Add, Connect, RemoveEdge, Remove and TransitiveReduction) may
// be called concurrently with each other, including from the fn of a Walk.
//
// It imports only the standard library.
package dag
