-- Constructors with several payloads of different types.
-- ==
-- input { 0 } output { 3.0 }
-- input { 1 } output { 12.0 }
-- input { 2 } output { 2.5 }

type expr = #lit f64 | #add f64 f64 | #mul f64 f64 | #neg f64

def eval (e: expr) : f64 =
  match e
  case #lit x -> x
  case #add x y -> x + y
  case #mul x y -> x * y
  case #neg x -> -x

def main (k: i32) =
  let e = if k == 0 then #add 1 2 else if k == 1 then #mul 3 4 else #neg (-2.5)
  in eval e
