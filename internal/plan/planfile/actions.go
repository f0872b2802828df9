package planfile

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// invocationJSON is a planned action invocation; Trigger is nil for one
// -invoke asked for.
type invocationJSON struct {
	Addr            string             `json:"addr"`
	Provider        string             `json:"provider"`
	Config          []byte             `json:"config"`
	ConfigSensitive [][]byte           `json:"config_sensitive_paths,omitempty"`
	Trigger         *invocationTrigger `json:"trigger,omitempty"`
}

type invocationTrigger struct {
	Resource    string `json:"resource"`
	Event       string `json:"event"`
	BlockIndex  int    `json:"block_index"`
	ActionIndex int    `json:"action_index"`
	OnFailure   string `json:"on_failure"`
}

func encodeInvocations(ais []*plan.ActionInvocation) ([]invocationJSON, error) {
	var out []invocationJSON
	for _, ai := range ais {
		cfg, sens, err := encodeValue(ai.Config)
		if err != nil {
			return nil, fmt.Errorf("encoding the configuration of %s: %w", ai.Addr, err)
		}
		ij := invocationJSON{Addr: ai.Addr.String(), Provider: ai.ProviderConfig.String(), Config: cfg, ConfigSensitive: sens}
		if t := ai.Trigger; t != nil {
			ij.Trigger = &invocationTrigger{Resource: t.Resource.String(), Event: t.Event.String(), BlockIndex: t.BlockIndex,
				ActionIndex: t.ActionIndex, OnFailure: plan.OnFailureKeyword(t.OnFailure)}
		}
		out = append(out, ij)
	}
	return out, nil
}

func decodeInvocations(in []invocationJSON) ([]*plan.ActionInvocation, error) {
	var out []*plan.ActionInvocation
	for _, ij := range in {
		addr, err := addrs.ParseAbsActionInstanceStr(ij.Addr)
		if err != nil {
			return nil, err
		}
		pc, err := addrs.ParseAbsProviderConfig(ij.Provider)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", ij.Addr, err)
		}
		cfg, err := decodeValue(ij.Config, ij.ConfigSensitive)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", ij.Addr, err)
		}
		ai := &plan.ActionInvocation{Addr: addr, ProviderConfig: pc, Config: cfg}
		if t := ij.Trigger; t != nil {
			res, err := addrs.ParseAbsResourceInstanceStr(t.Resource)
			if err != nil {
				return nil, fmt.Errorf("action %s: %w", ij.Addr, err)
			}
			ev, ok := plan.ParseActionEvent(t.Event)
			if !ok {
				return nil, fmt.Errorf("action %s: unknown event %q", ij.Addr, t.Event)
			}
			of, ok := plan.ParseOnFailure(t.OnFailure)
			if !ok {
				return nil, fmt.Errorf("action %s: unknown on_failure %q", ij.Addr, t.OnFailure)
			}
			ai.Trigger = &plan.ActionTrigger{Resource: res, Event: ev, BlockIndex: t.BlockIndex, ActionIndex: t.ActionIndex, OnFailure: of}
		}
		out = append(out, ai)
	}
	return out, nil
}
