run "check_fails" {
  variables {
    label = "sick"
  }
}

run "still_runs" {
  assert {
    condition     = output.endpoint == "ok:8080"
    error_message = "got ${output.endpoint}"
  }
}
