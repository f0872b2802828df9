package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
)

// The action calls of protocol 5.

func (c *client5) validateActionConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateActionConfig(ctx, &proto.ValidateActionConfig_Request{TypeName: typeName, Config: dv5(config)})
	return diags5(resp.GetDiagnostics()), err
}

func (c *client5) planAction(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, bool, error) {
	resp, err := c.rpc.PlanAction(ctx, &proto.PlanAction_Request{ActionType: typeName, Config: dv5(config), ClientCapabilities: capabilities5})
	if err != nil {
		return nil, false, err
	}
	return diags5(resp.GetDiagnostics()), resp.GetDeferred() != nil, nil
}

func (c *client5) invokeAction(ctx context.Context, typeName string, config dynamicValue, event func(actionEvent)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.InvokeAction(ctx, &proto.InvokeAction_Request{ActionType: typeName, Config: dv5(config), ClientCapabilities: capabilities5})
	if err != nil {
		return err
	}
	return receiveAll(stream.Recv, func(ev *proto.InvokeAction_Event) {
		switch t := ev.GetType().(type) {
		case *proto.InvokeAction_Event_Progress_:
			event(actionEvent{progress: t.Progress.GetMessage()})
		case *proto.InvokeAction_Event_Completed_:
			event(actionEvent{completed: true, diags: diags5(t.Completed.GetDiagnostics())})
		}
	})
}
