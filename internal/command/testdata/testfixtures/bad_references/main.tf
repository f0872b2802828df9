resource "test_resource" "only" {
  value = "only"
}
