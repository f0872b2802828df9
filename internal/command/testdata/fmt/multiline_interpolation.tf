resource "null_resource" "x" {
  triggers = {
    a = 1
  }
  value = "${merge(
    var.a,
    var.b
  )}"
  other = "${
    var.single
  }"
}
