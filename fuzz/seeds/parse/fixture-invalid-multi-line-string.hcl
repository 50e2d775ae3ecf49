a = "x
y"
