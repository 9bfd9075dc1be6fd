func.func @f() {
  "tile.x"() <{a = array<index: 1, 0>}> : () -> ()
  return
}
