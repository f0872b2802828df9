package commandtest

// exeSuffix ends the name of an executable.
const exeSuffix = ".exe"
