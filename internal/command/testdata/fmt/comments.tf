# A leading comment
// another style
/* a block
   comment */
resource "aws_instance" "web" { # trailing
  ami = "ami-1" # the image
  # between
  instance_type="t3.micro"   // size
  /* before */ count = 2
}
