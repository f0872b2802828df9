// Package plugin owns rig's client of provider plugins: it launches a
// provider executable with go-plugin (or reattaches to a running one named in
// TF_REATTACH_PROVIDERS), speaks protocol 5 or 6 of the Terraform provider
// plugin protocol to it over gRPC, and adapts it to provider.Interface:
// schemas become provider.Schema values, cty values travel as MessagePack
// DynamicValues, provider diagnostics become diag.Diagnostics.
//
// One Provider value owns one plugin process; Factory returns a
// provider.Factory that starts a new process for each instance. A process
// ends when its Provider is closed, when CleanupClients runs at rig's exit,
// and on Linux also when rig dies without cleaning up (SIGKILL): the kernel
// kills it then (procattr_linux.go). The wire
// contract lives in the subpackages tfplugin5 and tfplugin6 (generated from
// the .proto files there).
//
// It imports internal/addrs, internal/diag, internal/provider, its
// subpackages internal/provider/plugin/tfplugin5 and
// internal/provider/plugin/tfplugin6, go-plugin, go-hclog, grpc and
// go-cty.
package plugin
