run "only_first" {
  plan_options {
    target = [test_resource.first]
  }
  assert {
    condition     = test_resource.first.value == "first"
    error_message = "first is not applied"
  }
}

run "everything" {
  assert {
    condition     = test_resource.second.value == "second"
    error_message = "second is not applied"
  }
}

run "replaced" {
  variables {
    old_id = run.everything.first_id
  }
  plan_options {
    replace = [test_resource.first]
  }
  assert {
    condition     = test_resource.first.id != var.old_id
    error_message = "first was not replaced"
  }
}

run "refresh_only" {
  plan_options {
    mode = refresh-only
  }
  assert {
    condition     = test_resource.second.value == "second"
    error_message = "the refresh lost second"
  }
}

run "no_refresh" {
  command = plan
  plan_options {
    refresh = false
  }
  assert {
    condition     = test_resource.first.value == "first"
    error_message = "first"
  }
}

run "unknown_until_applied" {
  command = plan
  plan_options {
    replace = [test_resource.second]
  }
  assert {
    condition     = test_resource.second.id != ""
    error_message = "a replacement's id is only known after apply"
  }
}
