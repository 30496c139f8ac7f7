//! The Rust signature of the generated entry functions: their names and
//! the Rust types of their arguments and results. The entry adapters
//! (`imp_rust::entry`) are written with this signature, and the code
//! that calls them (the batch glue and `PROGRAM` of the program module,
//! generated libraries) names and types them the same way.

use ir::Type;

use crate::scalar;

/// The Rust name of the entry function of IR function `f`.
pub fn fun_name(f: ir::FunId) -> String {
    format!("f{}", ir::ids::EntityId::index(f))
}

/// The Rust type of an entry function's argument or result of IR type
/// `t`: the scalar itself, or the runtime's `Arr` of its elements.
pub fn rust_type(t: &Type) -> String {
    if t.shape.is_empty() && !t.acc {
        scalar::rust_prim(t.elem).to_string()
    } else {
        format!("Arr<{}>", scalar::rust_prim(t.elem))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_types() {
        let f = ir::parse::parse_program(
            "fun main(n: i64, xs: [n]f32) -> (f32) {\n  let y: f32 = xs[0i64]\n  in (y)\n}\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let (id, fun) = f.functions.iter().next().expect("one function");
        assert_eq!(fun_name(id), "f0");
        let types: Vec<String> = fun
            .params
            .iter()
            .map(|p| rust_type(fun.var_type(p.var).expect("typed")))
            .collect();
        assert_eq!(types, ["i64", "Arr<f32>"]);
        assert_eq!(rust_type(&fun.ret[0]), "f32");
    }
}
