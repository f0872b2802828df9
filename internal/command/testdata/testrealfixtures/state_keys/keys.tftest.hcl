run "first_writer" {
  variables {
    name = "writer-one"
  }
  module {
    source = "./writer"
  }
}

run "main" {
  variables {
    name = "main"
  }
  assert {
    condition     = local_file.main.content == "main"
    error_message = "main"
  }
}

run "own_key" {
  state_key = "second"
  variables {
    name = "own-key"
  }
}

run "second_writer" {
  state_key = "writers"
  variables {
    name = "writer-two"
  }
  module {
    source = "./writer"
  }
  assert {
    condition     = endswith(output.filename, "out/writer-two.txt")
    error_message = "got ${output.filename}"
  }
}
