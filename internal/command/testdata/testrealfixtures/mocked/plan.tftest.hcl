mock_provider "random" {
  override_during = plan
  mock_resource "random_pet" {
    defaults = {
      id = "known-now"
    }
  }
}

mock_provider "local" {}

run "known_at_plan" {
  command = plan
  assert {
    condition     = local_file.note.filename == "./out/known-now.txt"
    error_message = "override_during = plan"
  }
}
