// Package tfplugin6 owns the generated Go code of the Terraform provider plugin
// protocol, major version 6 (tfplugin6.proto beside this file): the message
// types and the gRPC client and server stubs of the Provider service. The .pb.go files are committed, so building rig
// needs no protoc; after editing the .proto file, regenerate them with
//
//	go generate ./internal/provider/plugin/tfplugin6
//
// which needs protoc on PATH (Debian package protobuf-compiler) and runs the
// protoc-gen-go and protoc-gen-go-grpc versions pinned as tools in go.mod.
//
// It imports only google.golang.org/protobuf and google.golang.org/grpc.
package tfplugin6

//go:generate sh -c "protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --plugin=protoc-gen-go-grpc=$(go tool -n protoc-gen-go-grpc) --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative tfplugin6.proto"
