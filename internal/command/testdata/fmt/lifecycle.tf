resource "aws_instance" "db" {
  ami = "ami-1"
  lifecycle {
    create_before_destroy = true
    prevent_destroy = false
    ignore_changes = [tags,ami]
    precondition {
      condition = var.ok
      error_message = "Not ok."
    }
  }
  provisioner "local-exec" {
    command = "echo ${self.id}"
    when = destroy
  }
}
