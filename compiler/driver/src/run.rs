//! Running entry points with the interpreter: loading a checked program into an
//! interpreter, reading arguments at the entry's parameter types, and writing results.

use std::io::{Read, Write};

use interp::{Interpreter, RuntimeError};
use semantic::{EntryPoint, EntryType};
use syntax::ast;
use values::{RankedType, Reader, Value};

use crate::db::{Database, check};
use crate::program::{Program, import_ids};

/// The value-format type of a primitive type of the language.
pub fn prim_type(t: ast::PrimType) -> values::PrimType {
    use ast::PrimType as A;
    use values::PrimType as V;
    match t {
        A::I8 => V::I8,
        A::I16 => V::I16,
        A::I32 => V::I32,
        A::I64 => V::I64,
        A::U8 => V::U8,
        A::U16 => V::U16,
        A::U32 => V::U32,
        A::U64 => V::U64,
        A::F16 => V::F16,
        A::F32 => V::F32,
        A::F64 => V::F64,
        A::Bool => V::Bool,
    }
}

/// How an entry point's type reads in messages: `[][]f32`, or the opaque type's name.
pub fn entry_type_name(t: &EntryType) -> String {
    match t {
        EntryType::Array { elem, rank } => RankedType::new(*rank, prim_type(*elem)).to_string(),
        EntryType::Opaque(name) => t.opaque_name().unwrap_or(name).to_string(),
    }
}

/// An interpreter with every file of a checked program loaded, prelude first.
pub fn instantiate(db: &Database, program: &Program) -> Result<Interpreter, RuntimeError> {
    let mut interp = Interpreter::new();
    let prelude = db.prelude_root();
    for &file in &program.files {
        let checked = check(db, file);
        let Some(cf) = &checked.file else {
            return Err(RuntimeError {
                message: format!(
                    "internal error: {} was not checked",
                    file.path(db).display()
                ),
                span: None,
                backtrace: Vec::new(),
            });
        };
        let is_prelude = crate::prelude::is_prelude_path(file.path(db));
        let prelude_id = if is_prelude {
            None
        } else {
            prelude.map(|p| p.id(db))
        };
        interp.load_file(file.id(db), &cf.ast, &import_ids(db, file), prelude_id)?;
    }
    Ok(interp)
}

/// Finds an entry point by name; the error lists the entries there are.
pub fn find_entry<'p>(program: &'p Program, name: &str) -> Result<&'p EntryPoint, String> {
    let entries = program.entry_points();
    if let Some(e) = entries.iter().find(|e| e.name == name) {
        return Ok(e);
    }
    if entries.is_empty() {
        return Err(format!(
            "entry point `{name}` not found: the program has no entry points"
        ));
    }
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    Err(format!(
        "entry point `{name}` not found; the program's entry points are: {}",
        names.join(", ")
    ))
}

/// The types of an entry's parameters, as the value reader needs them.
pub fn param_types(entry: &EntryPoint) -> Result<Vec<RankedType>, String> {
    entry
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            EntryType::Array { elem, rank } => Ok(RankedType::new(*rank, prim_type(*elem))),
            EntryType::Opaque(name) => Err(format!(
                "entry point `{}`: parameter {} has the opaque type {}, which cannot be read as input data",
                entry.name,
                i + 1,
                p.opaque_name().unwrap_or(name)
            )),
        })
        .collect()
}

fn signature(entry: &EntryPoint) -> String {
    let ps: Vec<String> = entry.params.iter().map(entry_type_name).collect();
    format!("({})", ps.join(", "))
}

/// Reads an entry's arguments from a stream of values (text and binary mixed),
/// each at its parameter's type. Errors name the entry, the parameter and the cause.
pub fn read_arguments<R: Read>(entry: &EntryPoint, input: R) -> Result<Vec<Value>, String> {
    let types = param_types(entry)?;
    let mut reader = Reader::new(input);
    let n = types.len();
    let mut args = Vec::with_capacity(n);
    for (i, t) in types.iter().enumerate() {
        if let Ok(true) = reader.at_end() {
            return Err(format!(
                "entry point `{}` takes {n} argument{} {}, but the input has only {i}",
                entry.name,
                if n == 1 { "" } else { "s" },
                signature(entry),
            ));
        }
        match reader.read_value(t) {
            Ok(v) => args.push(v),
            Err(e) => {
                return Err(format!(
                    "entry point `{}`, parameter {} of type {t}: invalid input at {}: {}",
                    entry.name,
                    i + 1,
                    e.position,
                    e.message
                ));
            }
        }
    }
    match reader.at_end() {
        Ok(true) => Ok(args),
        Ok(false) => Err(format!(
            "entry point `{}` takes {n} argument{} {}, but the input has more values",
            entry.name,
            if n == 1 { "" } else { "s" },
            signature(entry),
        )),
        Err(e) => Err(format!(
            "entry point `{}`: invalid input after the last argument at {}: {}",
            entry.name, e.position, e.message
        )),
    }
}

/// Writes results, one per line: text, or Futhark's binary format.
pub fn write_results(results: &[Value], binary: bool, out: &mut dyn Write) -> std::io::Result<()> {
    for v in results {
        if binary {
            values::write_binary(v, out)?;
        } else {
            writeln!(out, "{v}")?;
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(params: Vec<EntryType>) -> EntryPoint {
        EntryPoint {
            name: "main".into(),
            params,
            results: vec![],
        }
    }

    fn arr(elem: ast::PrimType, rank: usize) -> EntryType {
        EntryType::Array { elem, rank }
    }

    #[test]
    fn reads_unsuffixed_literals_at_the_parameter_type() {
        let e = entry(vec![arr(ast::PrimType::F32, 1), arr(ast::PrimType::I64, 0)]);
        let args = read_arguments(&e, "[1, 2.5] 3".as_bytes()).unwrap();
        assert_eq!(
            args,
            vec![Value::vector(vec![1.0f32, 2.5]), Value::scalar(3i64)]
        );
    }

    #[test]
    fn mixed_text_and_binary() {
        let e = entry(vec![arr(ast::PrimType::I32, 0), arr(ast::PrimType::F64, 1)]);
        let mut input = b"7 ".to_vec();
        input.extend(values::to_binary(&Value::vector(vec![1.0f64, 2.0])).unwrap());
        let args = read_arguments(&e, input.as_slice()).unwrap();
        assert_eq!(args[0], Value::scalar(7i32));
        assert_eq!(args[1], Value::vector(vec![1.0f64, 2.0]));
    }

    #[test]
    fn argument_errors_name_entry_and_parameter() {
        let e = entry(vec![arr(ast::PrimType::I32, 0), arr(ast::PrimType::F64, 1)]);
        let m = read_arguments(&e, "1".as_bytes()).unwrap_err();
        assert!(m.contains("`main` takes 2 arguments (i32, []f64)"), "{m}");
        assert!(m.contains("only 1"), "{m}");
        let m = read_arguments(&e, "1 [1.0] 3".as_bytes()).unwrap_err();
        assert!(m.contains("more values"), "{m}");
        let m = read_arguments(&e, "1 [1.0, ".as_bytes()).unwrap_err();
        assert!(m.contains("parameter 2 of type []f64"), "{m}");
        let m = read_arguments(&e, "true [1.0]".as_bytes()).unwrap_err();
        assert!(m.contains("parameter 1 of type i32"), "{m}");
        let m = read_arguments(&e, "1 [[1.0]]".as_bytes()).unwrap_err();
        assert!(m.contains("parameter 2"), "{m}");
        let o = entry(vec![EntryType::Opaque("state".into())]);
        let m = read_arguments(&o, "1".as_bytes()).unwrap_err();
        assert!(m.contains("opaque type state"), "{m}");
    }

    #[test]
    fn writes_text_and_binary() {
        let mut out = Vec::new();
        write_results(
            &[Value::scalar(1i32), Value::vector(vec![2u8])],
            false,
            &mut out,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1i32\n[2u8]\n");
        let mut out = Vec::new();
        write_results(&[Value::scalar(1i32)], true, &mut out).unwrap();
        assert_eq!(
            values::read_values(&out).unwrap(),
            vec![Value::scalar(1i32)]
        );
    }
}
