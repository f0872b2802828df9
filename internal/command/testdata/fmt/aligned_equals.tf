resource "aws_instance" "web" {
  ami = "ami-123456"
  instance_type = "t3.micro"
  subnet_id = var.subnet_id
  associate_public_ip_address = true

  monitoring = false
  ebs_optimized = true
}
