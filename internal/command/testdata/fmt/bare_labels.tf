resource aws_instance web {
  ami = "ami-1"
}

data aws_ami ubuntu {
  most_recent = true
}

module network {
  source = "./network"
}

provider aws {
  alias = "east"
}
