resource "aws_instance" "app" {
  ami           = "${var.ami}"
  instance_type = "${var.instance_type}"
  subnet_id     = "${element(var.subnets, count.index)}"
  user_data     = "${file("${path.module}/init.sh")}"
  name          = "${var.prefix}-app"
  count         = "${var.count}"
  tags = {
    Name = "${var.name}"
  }
}
