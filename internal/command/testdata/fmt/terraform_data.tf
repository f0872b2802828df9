resource "terraform_data" "replacement" {
  input = var.revision
  triggers_replace = [
    var.a,
    var.b,
  ]
}

resource "terraform_data" "bootstrap" {
  depends_on=[terraform_data.replacement]
}
