// Package provisioner owns the provisioners rig runs: the configuration
// schema of each provisioner type and local-exec, which runs a command on
// the machine running rig. Which provisioner runs when, and what its failure
// does to the object, is apply's concern.
//
// It imports no rig package.
package provisioner
