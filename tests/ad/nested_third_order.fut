-- Third derivatives by three nested AD operators, in all eight pairings of
-- jvp and vjp, of a function using a map and a reduce:
-- f x = sum (map (\v -> v^4) [x, 2 x]) = 17 x^4, so f''' x = 408 x.
-- ==
-- input { 1.0 } output { [408.0, 408.0, 408.0, 408.0, 408.0, 408.0, 408.0, 408.0] }
-- input { -0.5 } output { [-204.0, -204.0, -204.0, -204.0, -204.0, -204.0, -204.0, -204.0] }

def f (x: f64) : f64 = reduce (+) 0 (map (\v -> v * v * v * v) [x, 2 * x])

def fwd (g: f64 -> f64) (x: f64) : f64 = jvp g x 1
def rev (g: f64 -> f64) (x: f64) : f64 = vjp g x 1

def main (x: f64) : [8]f64 =
  [ fwd (fwd (fwd f)) x, fwd (fwd (rev f)) x, fwd (rev (fwd f)) x, fwd (rev (rev f)) x
  , rev (fwd (fwd f)) x, rev (fwd (rev f)) x, rev (rev (fwd f)) x, rev (rev (rev f)) x ]
