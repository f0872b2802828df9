resource "aws_instance" "web" {
  ami           = "ami-1"
  instance_type = "t3.micro"

  tags = {
    Name = "web"
  }
}
