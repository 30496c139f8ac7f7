//! The generated program the benchmarks share.

/// A program of about `blocks * 10` lines exercising the common constructs: size
/// parameters, lambdas, SOACs, loops, records, modules and calls between definitions.
/// Calls form chains of at most four definitions, as in typical programs (a chain
/// through every block would make each entry point inline all the blocks before it,
/// which measures the inliner's worst case rather than a program of this size).
pub fn generated_program(blocks: usize) -> String {
    let mut s = String::new();
    for i in 0..blocks {
        let call = if i % 4 == 0 {
            "0".to_string()
        } else {
            format!("f{} xs k", i - 1)
        };
        s.push_str(&format!(
            "-- | Block {i}.\n\
             def f{i} [n] (xs: [n]f64) (k: i64) : f64 =\n\
             \x20 let ys = map (\\x -> x * {i}.0 + f64.i64 k) xs\n\
             \x20 let t = loop acc = reduce (+) 0 ys for j < k do acc * 0.5 + f64.i64 j\n\
             \x20 let r = {{a = t, b = f64.sum ys}}\n\
             \x20 in if r.a > r.b then r.a else r.b + {call}\n\
             type rec{i} = {{x: i32, y: f32}}\n\
             module M{i} = {{ def g (p: rec{i}) : i32 = p.x + {i} + i32.f32 p.y }}\n\
             entry e{i} (xs: []f64) : f64 = f{i} xs 3\n\n"
        ));
    }
    s
}
