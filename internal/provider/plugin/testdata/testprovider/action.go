package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"
)

// The actions: test_log appends "action MESSAGE" to the operation log
// (the file RIG_TESTPROVIDER_OPLOG names, where every apply of a test_thing
// also appends "create NAME", "update NAME" or "delete NAME", and every
// open and close of a test_token "open NAME" and "close NAME"), streaming
// one progress message first; test_fail streams a progress message and
// fails with its message. A message of "invalid" is refused by
// ValidateActionConfig and PlanAction.
var actionType = cty.Object(map[string]cty.Type{"message": cty.String})

func actionSchemas() map[string]*tfplugin6.ActionSchema {
	return map[string]*tfplugin6.ActionSchema{
		"test_log": {Schema: &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
			Description: "Appends its message to the operation log.",
			Attributes:  []*tfplugin6.Schema_Attribute{attr("message", cty.String, "r")}}}},
		"test_fail": {Schema: &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
			Description: "Fails with its message.",
			Attributes:  []*tfplugin6.Schema_Attribute{attr("message", cty.String, "o")}}}},
	}
}

var opLogMu sync.Mutex

// opLog appends a line to the operation log, when there is one.
func opLog(format string, args ...any) {
	path := os.Getenv("RIG_TESTPROVIDER_OPLOG")
	if path == "" {
		return
	}
	opLogMu.Lock()
	defer opLogMu.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		logger.Error("operation log", "error", err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, format+"\n", args...)
}

// logApply records an apply of a test_thing in the operation log.
func logApply(req *tfplugin6.ApplyResourceChange_Request) {
	if req.TypeName != "test_thing" {
		return
	}
	prior, err1 := decode(req.PriorState, thingType)
	planned, err2 := decode(req.PlannedState, thingType)
	if err1 != nil || err2 != nil {
		return
	}
	switch {
	case prior.IsNull() && !planned.IsNull():
		opLog("create %s", planned.GetAttr("name").AsString())
	case planned.IsNull() && !prior.IsNull():
		opLog("delete %s", prior.GetAttr("name").AsString())
	case !planned.IsNull():
		opLog("update %s", planned.GetAttr("name").AsString())
	}
}

// actionMessage decodes an action's configuration and returns its message,
// with the diagnostics of a configuration the action refuses.
func actionMessage(typeName string, dv *tfplugin6.DynamicValue) (string, []*tfplugin6.Diagnostic) {
	if _, ok := actionSchemas()[typeName]; !ok {
		return "", []*tfplugin6.Diagnostic{errDiag("Unknown action type", typeName)}
	}
	v, err := decode(dv, actionType)
	if err != nil {
		return "", decodeFailed(err)
	}
	if v.IsNull() {
		return "", nil
	}
	m := v.GetAttr("message")
	if !m.IsKnown() || m.IsNull() {
		return "", nil
	}
	if m.AsString() == "invalid" {
		return "", []*tfplugin6.Diagnostic{errDiag("Invalid message", "The message \"invalid\" is refused.", attrStep("message"))}
	}
	return m.AsString(), nil
}

func (s *server) ValidateActionConfig(_ context.Context, req *tfplugin6.ValidateActionConfig_Request) (*tfplugin6.ValidateActionConfig_Response, error) {
	_, ds := actionMessage(req.TypeName, req.Config)
	return &tfplugin6.ValidateActionConfig_Response{Diagnostics: ds}, nil
}

func (s *server) PlanAction(_ context.Context, req *tfplugin6.PlanAction_Request) (*tfplugin6.PlanAction_Response, error) {
	_, ds := actionMessage(req.ActionType, req.Config)
	return &tfplugin6.PlanAction_Response{Diagnostics: ds}, nil
}

// invokeEvents returns the events an invocation streams.
func invokeEvents(req *tfplugin6.InvokeAction_Request) []*tfplugin6.InvokeAction_Event {
	msg, ds := actionMessage(req.ActionType, req.Config)
	completed := func(ds []*tfplugin6.Diagnostic) *tfplugin6.InvokeAction_Event {
		return &tfplugin6.InvokeAction_Event{Type: &tfplugin6.InvokeAction_Event_Completed_{Completed: &tfplugin6.InvokeAction_Event_Completed{Diagnostics: ds}}}
	}
	progress := func(m string) *tfplugin6.InvokeAction_Event {
		return &tfplugin6.InvokeAction_Event{Type: &tfplugin6.InvokeAction_Event_Progress_{Progress: &tfplugin6.InvokeAction_Event_Progress{Message: m}}}
	}
	if len(ds) > 0 {
		return []*tfplugin6.InvokeAction_Event{completed(ds)}
	}
	if req.ActionType == "test_fail" {
		opLog("fail %s", msg)
		return []*tfplugin6.InvokeAction_Event{progress("about to fail"), completed([]*tfplugin6.Diagnostic{errDiag("Action failed", msg)})}
	}
	opLog("action %s", msg)
	return []*tfplugin6.InvokeAction_Event{progress("logged " + msg), completed(nil)}
}

func (s *server) InvokeAction(req *tfplugin6.InvokeAction_Request, stream grpc.ServerStreamingServer[tfplugin6.InvokeAction_Event]) error {
	for _, ev := range invokeEvents(req) {
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
	return nil
}

func (s *server5) ValidateActionConfig(ctx context.Context, in *tfplugin5.ValidateActionConfig_Request) (*tfplugin5.ValidateActionConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateActionConfig_Request), new(tfplugin5.ValidateActionConfig_Response), s.v6.ValidateActionConfig)
}

func (s *server5) PlanAction(ctx context.Context, in *tfplugin5.PlanAction_Request) (*tfplugin5.PlanAction_Response, error) {
	return relay(ctx, in, new(tfplugin6.PlanAction_Request), new(tfplugin5.PlanAction_Response), s.v6.PlanAction)
}

func (s *server5) InvokeAction(in *tfplugin5.InvokeAction_Request, stream grpc.ServerStreamingServer[tfplugin5.InvokeAction_Event]) error {
	same := func(_ context.Context, r *tfplugin6.InvokeAction_Request) (*tfplugin6.InvokeAction_Request, error) {
		return r, nil
	}
	req6, err := relay(stream.Context(), in, new(tfplugin6.InvokeAction_Request), new(tfplugin6.InvokeAction_Request), same)
	if err != nil {
		return err
	}
	for _, ev := range invokeEvents(req6) {
		ev5, err := relay(stream.Context(), ev, new(tfplugin6.InvokeAction_Event), new(tfplugin5.InvokeAction_Event),
			func(_ context.Context, e *tfplugin6.InvokeAction_Event) (*tfplugin6.InvokeAction_Event, error) {
				return e, nil
			})
		if err != nil {
			return err
		}
		if err := stream.Send(ev5); err != nil {
			return err
		}
	}
	return nil
}
