name = "${upper("web")}"
zones = [ "a" ]
