func.func @broken() {
  not_an_op
}
