package tfplugin5

// The .pb.go files beside this one are generated from tfplugin5.proto, which
// holds protocol 5.10 as Terraform v1.15 publishes it (field numbers, types
// and names; the comments are rig's). After editing the .proto file, run
//
//	go generate ./internal/provider/plugin/tfplugin5
//
// It needs protoc on PATH, with the well-known types in /usr/include: the
// committed files were made with protoc 3.21.12 from Debian's
// protobuf-compiler package (apt-get install protobuf-compiler). The two
// plugins are the versions go.mod pins as tools, built by `go tool`:
// protoc-gen-go from google.golang.org/protobuf v1.36.12 (the runtime rig
// links) and protoc-gen-go-grpc v1.6.1 (google.golang.org/grpc/cmd/
// protoc-gen-go-grpc, whose output needs grpc-go v1.64 or later). The exact
// command:
//
//	protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) \
//	  --plugin=protoc-gen-go-grpc=$(go tool -n protoc-gen-go-grpc) \
//	  --go_out=. --go_opt=paths=source_relative \
//	  --go-grpc_out=. --go-grpc_opt=paths=source_relative tfplugin5.proto
//
// Running it again on an unchanged .proto file reproduces the committed
// files byte for byte.

//go:generate sh -c "protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --plugin=protoc-gen-go-grpc=$(go tool -n protoc-gen-go-grpc) --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative tfplugin5.proto"
