-- Values as Futhark's value reader reads them: an integer literal modulo
-- 2^bits of its type (`-1u8` is 255, `255i8` is -1, `32767i8` is -1), and
-- hexadecimal float literals.
-- ==
-- input { [-1u8, 255u8, 0u8] [255i8, 32767i8, -128i8] [-271733879u32] [0x1.8p1f64, -0xf.fp-2f64, 0x11.ffp0f64] [0x0.f0p0f32] }
-- output { [255u8, 255u8, 0u8] [-1i8, -1i8, -128i8] [4023233417u32] [3.0f64, -3.984375f64, 17.99609375f64] [0.9375f32] }

def main (a: []u8) (b: []i8) (c: []u32) (d: []f64) (e: []f32) = (a, b, c, d, e)
