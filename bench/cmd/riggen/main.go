// Command riggen writes a generated benchmark configuration to a directory:
//
//	go run ./bench/cmd/riggen -shape=layered -n=10000 -out=/tmp/bench10k
//	go run ./bench/cmd/riggen -shape=layered -n=10000 -version=2 -update=0.1 -replace=0.1 -out=/tmp/bench10k
//	go run ./bench/cmd/riggen -shape=modules -n=100000 -modules=1000 -out=/tmp/mod100k
//
// The modules shape also writes its child module, modules/layer/main.tf.
// -reduced writes rig.hcl with recorded_dependencies = "reduced", which
// graphs of many distinct resource blocks in deep layers need (see
// bench/README.md).
//
// It imports bench/gen.
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
	shape := flag.String("shape", "layered", "chain, fanout, fanin, layered, count, foreach, mixed, modules or modules-flat")
	flag.IntVar(&o.N, "n", 1000, "number of resource instances")
	flag.IntVar(&o.Layers, "layers", 10, "layers of the layered shapes")
	flag.IntVar(&o.Refs, "refs", 3, "references to the previous layer per instance")
	flag.IntVar(&o.Modules, "modules", 0, "module instances of the modules shapes (default n/100)")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.IntVar(&o.Version, "version", 1, "1: initial configuration; 2: changed")
	flag.Float64Var(&o.UpdateFraction, "update", 0, "fraction of inputs changed in version 2")
	flag.Float64Var(&o.ReplaceFraction, "replace", 0, "fraction of triggers changed in version 2")
	out := flag.String("out", ".", "directory to write the configuration into")
	reduced := flag.Bool("reduced", false, `write rig.hcl with recorded_dependencies = "reduced"`)
	flag.Parse()
	o.Shape = gen.Shape(*shape)
	if err := gen.Write(*out, o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *reduced {
		if err := os.WriteFile(filepath.Join(*out, "rig.hcl"), []byte("recorded_dependencies = \"reduced\"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
