

resource "null_resource" "a" {


  triggers = {}



}



resource "null_resource" "b" {}


