-- Library: module types shared by several tests.

module type monoid = {
  type t
  val ne : t
  val op : t -> t -> t
}

module type shape = {
  val area : f64 -> f64
}
