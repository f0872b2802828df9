variable "region" {
	type	= string
	default = "eu-west-1"
	description =	"The region"
}

resource "null_resource" "x" {
	triggers = {
		a = 1
		bbb = 2
	}
}
