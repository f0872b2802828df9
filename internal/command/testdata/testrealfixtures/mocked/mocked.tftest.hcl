mock_provider "local" {}

mock_provider "random" {
  mock_resource "random_pet" {
    defaults = {
      id = "mocked-pet"
    }
  }
}

run "overridden" {
  override_resource {
    target = random_id.key
    values = {
      hex = "cafe"
    }
  }
  assert {
    condition     = local_file.note.content == "cafe"
    error_message = "got ${local_file.note.content}"
  }
}

run "nothing_is_written" {
  assert {
    condition     = local_file.note.filename == "./out/mocked-pet.txt"
    error_message = "the mocked pet names the file: ${local_file.note.filename}"
  }
  assert {
    condition     = random_id.key.hex == "cafe"
    error_message = "the override's value stays"
  }
  assert {
    condition     = length(output.id) == 8
    error_message = "a generated id"
  }
}

run "fails" {
  assert {
    condition     = random_pet.name.id == "real"
    error_message = "a mock is not real"
  }
}
