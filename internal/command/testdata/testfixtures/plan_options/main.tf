resource "test_resource" "first" {
  value = "first"
}

resource "test_resource" "second" {
  value = "second"
}

output "first_id" {
  value = test_resource.first.id
}
