// Package tfplugin6 owns the generated Go code of the Terraform provider plugin
// protocol, major version 6 (tfplugin6.proto beside this file): the message
// types and the gRPC client and server stubs of the Provider service. The
// .pb.go files are committed, so building rig needs no protoc; generate.go
// says how to regenerate them.
//
// It imports only google.golang.org/protobuf and google.golang.org/grpc.
package tfplugin6
