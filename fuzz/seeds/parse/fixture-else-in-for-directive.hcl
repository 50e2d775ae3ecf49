a = "%{ for v in y }${v}%{ else }%{ endfor }"
