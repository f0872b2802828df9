run "before" {}

run "interrupting_twice" {
  variables {
    interrupts = 2
  }
}

run "never" {}
