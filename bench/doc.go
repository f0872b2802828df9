// Package bench holds rig's Go benchmarks of configuration loading,
// graph building, planning, applying and destroying generated
// configurations of 1,000 to 100,000 instances; run them with ./bench/run.
//
// It may import every rig package (it drives the engine directly).
package bench
