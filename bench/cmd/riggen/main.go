// Command riggen writes a generated benchmark configuration to a directory:
//
//	go run ./bench/cmd/riggen -shape=layered -n=10000 -out=/tmp/bench10k
//	go run ./bench/cmd/riggen -shape=layered -n=10000 -version=2 -update=0.1 -replace=0.1 -out=/tmp/bench10k
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/bench/gen"
)

func main() {
	var o gen.Options
	shape := flag.String("shape", "layered", "chain, fanout, fanin, layered, count, foreach or mixed")
	flag.IntVar(&o.N, "n", 1000, "number of resource instances")
	flag.IntVar(&o.Layers, "layers", 10, "layers of the layered shapes")
	flag.IntVar(&o.Refs, "refs", 3, "references to the previous layer per instance")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.IntVar(&o.Version, "version", 1, "1: initial configuration; 2: changed")
	flag.Float64Var(&o.UpdateFraction, "update", 0, "fraction of inputs changed in version 2")
	flag.Float64Var(&o.ReplaceFraction, "replace", 0, "fraction of triggers changed in version 2")
	out := flag.String("out", ".", "directory to write main.tf into")
	flag.Parse()
	o.Shape = gen.Shape(*shape)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*out, "main.tf"), []byte(gen.Generate(o)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
