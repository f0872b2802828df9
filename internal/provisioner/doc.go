// Package provisioner owns the provisioners rig runs: the configuration
// schema of each provisioner type and of connection blocks; local-exec,
// which runs a command on the machine running rig; remote-exec and file,
// which run scripts on and copy files to a host over SSH (uploads use the
// SCP protocol). Which provisioner runs when, and what its failure
// does to the object, is apply's concern.
//
// It imports no rig package.
package provisioner
