-- | Zipping and unzipping arrays.
--
-- Zipping is cheap: an array of tuples is represented as a tuple of
-- arrays, so `zip` and `unzip` only rearrange bookkeeping.  All arrays
-- given to a zip must have the same outer size.

-- The one place where `map` is needed before `soacs` exists.
local def map_ 'a [n] 'x (f: a -> x) (xs: [n]a): *[n]x = __intrinsic "map"

-- | Pair up the elements of two arrays of the same length.
def zip 'a 'b [n] (xs: [n]a) (ys: [n]b): *[n](a, b) = __intrinsic "zip"

-- | The same as `zip`.
def zip2 'a 'b [n] (xs: [n]a) (ys: [n]b): *[n](a, b) = zip xs ys

-- | Combine three arrays of the same length into an array of triples.
def zip3 'a 'b 'c [n] (xs: [n]a) (ys: [n]b) (zs: [n]c): *[n](a, b, c) =
  map_ (\(x, (y, z)) -> (x, y, z)) (zip xs (zip ys zs))

-- | Combine four arrays of the same length into an array of 4-tuples.
def zip4 'a 'b 'c 'd [n] (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d): *[n](a, b, c, d) =
  map_ (\(x, (y, (z, w))) -> (x, y, z, w)) (zip xs (zip ys (zip zs ws)))

-- | Combine five arrays of the same length into an array of 5-tuples.
def zip5 'a 'b 'c 'd 'e [n] (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) (vs: [n]e): *[n](a, b, c, d, e) =
  map_ (\(x, (y, (z, (w, v)))) -> (x, y, z, w, v)) (zip xs (zip ys (zip zs (zip ws vs))))

-- | Split an array of pairs into two arrays.
def unzip 'a 'b [n] (xys: [n](a, b)): ([n]a, [n]b) = __intrinsic "unzip"

-- | The same as `unzip`.
def unzip2 'a 'b [n] (xys: [n](a, b)): ([n]a, [n]b) = unzip xys

-- | Split an array of triples into three arrays.
def unzip3 'a 'b 'c [n] (xyzs: [n](a, b, c)): ([n]a, [n]b, [n]c) =
  let (xs, yzs) = unzip (map_ (\(x, y, z) -> (x, (y, z))) xyzs)
  let (ys, zs) = unzip yzs
  in (xs, ys, zs)

-- | Split an array of 4-tuples into four arrays.
def unzip4 'a 'b 'c 'd [n] (xs: [n](a, b, c, d)): ([n]a, [n]b, [n]c, [n]d) =
  let (as1, rest) = unzip (map_ (\(x, y, z, w) -> (x, (y, z, w))) xs)
  let (bs, cs, ds) = unzip3 rest
  in (as1, bs, cs, ds)

-- | Split an array of 5-tuples into five arrays.
def unzip5 'a 'b 'c 'd 'e [n] (xs: [n](a, b, c, d, e)): ([n]a, [n]b, [n]c, [n]d, [n]e) =
  let (as1, rest) = unzip (map_ (\(x, y, z, w, v) -> (x, (y, z, w, v))) xs)
  let (bs, cs, ds, es) = unzip4 rest
  in (as1, bs, cs, ds, es)
