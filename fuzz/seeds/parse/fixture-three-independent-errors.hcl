resource a {
  body = {
    x = 
  }
}

resource b {
  body = [1 2]
}

resource c {
  body = { k v }
}
