locals {
  config = {
    app = {
      name = "web"
      port= 8080
      env = {
        DEBUG = "false"
        LOG_LEVEL="info"
      }
    }
    db = { engine = "postgres", version = "15" }
  }
}
