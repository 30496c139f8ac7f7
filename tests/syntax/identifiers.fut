-- Identifiers may contain primes, digits, underscores and capitals.
-- ==
-- input { 3 } output { 13 }

def main (x: i32) =
  let x' = x + 1
  let x'' = x' * 2
  let Foo = 1
  let fooBar_2 = x'' + Foo
  let camelCase' = fooBar_2 + x
  in camelCase' + Foo
