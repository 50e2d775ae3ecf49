a = "%{ for v in y }${v}"
