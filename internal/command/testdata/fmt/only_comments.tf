# nothing here yet
   # indented comment
