run "before" {}

run "interrupting" {
  variables {
    interrupts = 1
  }
}

run "never" {}
