-- The sieve of Eratosthenes with in-place updates of a boolean array.
-- ==
-- input { 30i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] 10i64 }
-- input { 2i64 } output { empty([0]i64) 0i64 }
-- input { 3i64 } output { [2i64] 1i64 }
-- input { 100i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64, 31i64, 37i64, 41i64, 43i64, 47i64, 53i64, 59i64, 61i64, 67i64, 71i64, 73i64, 79i64, 83i64, 89i64, 97i64] 25i64 }

-- | Primes strictly below n.
def sieve (n: i64) : []i64 =
  let is_prime = replicate n true
  let is_prime = if n > 0 then is_prime with [0] = false else is_prime
  let is_prime = if n > 1 then is_prime with [1] = false else is_prime
  let is_prime =
    loop is_prime for i in 2..<n do
      if i * i >= n || !is_prime[i] then is_prime
      else loop is_prime for j in (i * i)..(i * i + i)..<n do
             is_prime with [j] = false
  in filter (\i -> is_prime[i]) (iota n)

def main (n: i64) : ([]i64, i64) =
  let ps = sieve n
  in (ps, length ps)
