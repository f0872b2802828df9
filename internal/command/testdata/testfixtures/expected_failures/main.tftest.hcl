run "privileged_port" {
  command = plan
  variables {
    port = 80
  }
  expect_failures = [var.port]
}

run "broken_service" {
  command = plan
  variables {
    label = "broken"
  }
  expect_failures = [test_resource.service]
}

run "hidden_endpoint" {
  command = plan
  variables {
    label = "hidden"
  }
  expect_failures = [output.endpoint]
}

run "sick_service" {
  variables {
    label = "sick"
  }
  expect_failures = [check.health]
}

run "nothing_fails" {
  command = plan
  expect_failures = [var.port]
}

run "skipped_after_error" {}
