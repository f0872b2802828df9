// Package slowcloud is a cloud to measure infrastructure tools against: a
// loopback HTTP API (package cloud, run by cmd/slowcloud) whose every call
// takes a configured latency with jitter and draws on a token bucket shared
// by every client, and a Terraform provider plugin (package provider, built
// as cmd/terraform-provider-slowcloud) that OpenTofu, Terraform and rig
// load, whose resources and data sources are objects of that API.
//
// It is a module of its own, so that the provider SDK it is written with
// (terraform-plugin-go) stays out of rig's module.
package slowcloud
