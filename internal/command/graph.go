package command

import (
	"context"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/graphview"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// runGraph prints a Graphviz DOT graph: by default the resources and their
// dependencies; with -type=plan or -type=plan-destroy, the operations a plan
// would run and their order; with -plan=FILE, those of a saved plan.
func runGraph(m *Meta, args []string) int {
	fs := m.flagSet("graph")
	typ := fs.String("type", "", "Draw the graph of `TYPE`: plan or plan-destroy, the operations of such a plan and their order (apply, with -plan). By default the graph is of the resources and their dependencies.")
	format := fs.String("format", "dot", "Write the graph as `FORMAT`: dot (Graphviz), mermaid (a Mermaid flowchart, which Markdown renderers draw), html (an interactive page, self-contained) or svg (a static image of the same layout).")
	outPath := fs.String("o", "", "Write the graph to `FILE` rather than to standard output.")
	planPath := fs.String("plan", "", "Draw the operations of the saved plan at `FILE` (made by \"rig plan -out\") and their order, rather than planning.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = *outPath == ""
	switch *format {
	case "dot", "mermaid", "html", "svg":
	default:
		return m.argsError(fs, "Invalid -format", fmt.Sprintf("Unknown graph format %q: want dot, mermaid, html or svg.", *format))
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	if *planPath != "" && *typ != "" && *typ != "apply" {
		return m.argsError(fs, "Invalid combination of options", fmt.Sprintf("A saved plan has one graph, of the operations applying it runs: -type=%s does not go with -plan.", *typ))
	}
	ctx := context.Background()
	if *planPath != "" {
		return m.graphSavedPlan(*planPath, *outPath, *format)
	}
	switch *typ {
	case "":
		cfg, ds := m.loadCheckedConfig()
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		set := provider.NewSet(m.dir().ProviderFactories())
		defer set.Close()
		g, more := planner.ResourceGraph(ctx, cfg, set)
		ds = ds.Append(more)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		return m.writeGraph(*outPath, *format, func(w io.Writer, mermaid bool) error {
			if mermaid {
				return g.Mermaid(w, dag.MermaidOptions[addrs.ConfigResource]{Name: addrs.ConfigResource.String})
			}
			return g.DOT(w, dag.DOTOptions[addrs.ConfigResource]{GraphName: "rig", Name: addrs.ConfigResource.String})
		}, func() *graphview.Document { return graphview.FromResources(g) })
	case "plan", "plan-destroy", "apply":
		f := operationFlags{refresh: true, parallelism: 10, lock: true, destroy: *typ == "plan-destroy"}
		sess, ds := m.open(ctx, &f, "OperationTypePlan")
		defer sess.Close()
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		p, _, more := m.makePlan(ctx, sess, &f, nil)
		ds = ds.Append(more)
		if ds.HasErrors() && !plan.OnlyRefusals(p, ds) {
			m.showDiagnostics(ds)
			return 1
		}
		// A plan refused only for protections the state records is whole:
		// it is drawn, the refused deletes marked, and still refused.
		code := m.graphPlan(p, sess.Config, *outPath, *format)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		return code
	}
	fmt.Fprintf(m.Err, "Error: invalid -type %q: want \"plan\", \"plan-destroy\" or nothing.\n", *typ)
	return 1
}

// graphSavedPlan draws the operations of the plan saved at path, with the
// configuration it records.
func (m *Meta) graphSavedPlan(path, outPath, format string) int {
	pf, err := m.readSavedPlan(path)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
		return 1
	}
	return m.graphPlan(pf.Plan, m.dir().PlannedConfig(pf), outPath, format)
}

// graphPlan draws p's operation graph.
func (m *Meta) graphPlan(p *plan.Plan, cfg *config.Module, outPath, format string) int {
	g, ds := apply.OrderWith(p, apply.OrderOptions{Rules: format == "html" || format == "svg", Config: cfg})
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	x, more := m.graphExtras(context.Background(), p, g, cfg)
	if more.HasErrors() {
		m.showDiagnostics(more)
		return 1
	}
	return m.writeGraph(outPath, format, func(w io.Writer, mermaid bool) error {
		if !x.Empty() {
			// Actions and ephemeral resources are drawn as nodes of their own.
			ext := graphview.Extend(g, x)
			label := func(v graphview.Vertex) string { return graphview.VertexLabel(g, v) }
			if mermaid {
				return ext.Mermaid(w, dag.MermaidOptions[graphview.Vertex]{Name: label})
			}
			return ext.DOT(w, dag.DOTOptions[graphview.Vertex]{GraphName: "rig", Name: label, NodeAttrs: graphview.VertexDOTAttrs})
		}
		if mermaid {
			return g.G.Mermaid(w, dag.MermaidOptions[apply.Op]{Name: g.Label})
		}
		return g.G.DOT(w, dag.DOTOptions[apply.Op]{GraphName: "rig", Name: g.Label})
	}, func() *graphview.Document { return graphview.BuildWith(g, p, x) })
}

// writeGraph writes a graph to path (standard output when "") in format
// (graphview.WriteFormat).
func (m *Meta) writeGraph(path, format string, text func(w io.Writer, mermaid bool) error, doc func() *graphview.Document) int {
	var err error
	if path == "" {
		err = graphview.WriteFormat(m.Out, format, text, doc)
	} else {
		err = graphview.WriteFile(path, format, text, doc)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write graph", "%s", err)})
		return 1
	}
	return 0
}
