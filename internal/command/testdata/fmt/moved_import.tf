moved {
  from = aws_instance.old
  to = aws_instance.new
}

import {
  to = aws_instance.web
  id = "i-0123456789"
}

removed {
  from = aws_instance.gone
  lifecycle {
    destroy = false
  }
}
