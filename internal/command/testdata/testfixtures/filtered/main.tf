resource "test_resource" "r" {
  value = "r"
}
