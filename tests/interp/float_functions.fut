-- Elementary float functions.
-- ==
-- input { 2.0 } output { 1.4142135623730951 7.38905609893065 0.6931471805599453 0.9092974268256817 -0.4161468365471424 4.0 }

def main (x: f64) : (f64, f64, f64, f64, f64, f64) =
  (f64.sqrt x, f64.exp x, f64.log x, f64.sin x, f64.cos x, x ** 2)
