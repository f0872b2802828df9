// Package provider is slowcloud's Terraform provider (protocol 6, on
// terraform-plugin-go): the resource slowcloud_object and the data source
// slowcloud_object, each call of which reaches the cloud's API through
// cloud.Client (ReadResource, ApplyResourceChange, ImportResourceState and
// ReadDataSource; planning, validation and upgrades are local, as in real
// providers). It counts the calls it receives by RPC, the throttled API
// calls it retried, and the throttling errors it gave up on (returned as
// error diagnostics), for Report.
//
// It imports terraform-plugin-go and package cloud.
package provider
