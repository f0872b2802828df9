package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// The action calls of protocol 6.

func (c *client6) validateActionConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateActionConfig(ctx, &proto.ValidateActionConfig_Request{TypeName: typeName, Config: dv6(config)})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) planAction(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, bool, error) {
	resp, err := c.rpc.PlanAction(ctx, &proto.PlanAction_Request{ActionType: typeName, Config: dv6(config), ClientCapabilities: capabilities6})
	if err != nil {
		return nil, false, err
	}
	return diags6(resp.GetDiagnostics()), resp.GetDeferred() != nil, nil
}

func (c *client6) invokeAction(ctx context.Context, typeName string, config dynamicValue, event func(actionEvent)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.InvokeAction(ctx, &proto.InvokeAction_Request{ActionType: typeName, Config: dv6(config), ClientCapabilities: capabilities6})
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := ev.GetType().(type) {
		case *proto.InvokeAction_Event_Progress_:
			event(actionEvent{progress: t.Progress.GetMessage()})
		case *proto.InvokeAction_Event_Completed_:
			event(actionEvent{completed: true, diags: diags6(t.Completed.GetDiagnostics())})
		}
	}
}

// actionSchemas6 converts the action schemas of a schema response.
func actionSchemas6(in map[string]*proto.ActionSchema, invalid func(string, error)) map[string]provider.Schema {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]provider.Schema, len(in))
	for name, s := range in {
		sch, err := schema6(s.GetSchema())
		if err != nil {
			invalid(fmt.Sprintf("action type %s", name), err)
			continue
		}
		out[name] = sch
	}
	return out
}
