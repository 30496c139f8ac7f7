module m = {
  def x = )
  def y = 2
}
module type s = {
  val x : )
  val y : i32
}
def z = 3
