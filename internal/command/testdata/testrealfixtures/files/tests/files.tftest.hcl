run "writes_a_note" {
  assert {
    condition     = startswith(random_pet.name.id, "note-")
    error_message = "the pet is named ${random_pet.name.id}"
  }
  assert {
    condition     = data.local_file.read_back.content == "size ${output.size}"
    error_message = "the note reads back"
  }
}

run "renamed" {
  variables {
    prefix = "memo"
  }
  assert {
    condition     = startswith(output.filename, "./out/memo-")
    error_message = "renamed to ${output.filename}"
  }
}

run "wrong_size" {
  command = plan
  assert {
    condition     = output.size > 100
    error_message = "the size is not above 100"
  }
}

run "after_wrong_size" {
  command = plan
  variables {
    prefix = "later"
  }
  assert {
    condition     = random_pet.name.prefix == "later"
    error_message = "planned prefix"
  }
}
