package statemgr

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// testProvider is the provider configuration of the tests' objects.
var testProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Module: addrs.RootModule}

// dataAddr is the address of the root module's terraform_data.name.
func dataAddr(name string) addrs.ObjectAddr {
	return addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}.Absolute(addrs.RootModule).Instance(addrs.NoKey)}
}

// setData records terraform_data.name in s with the given id.
func setData(s *state.State, name, id string) {
	s.SetObject(dataAddr(name), &state.Object{AttrsJSON: []byte(`{"id":"` + id + `"}`)}, testProvider)
}
