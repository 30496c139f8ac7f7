//! Snapshot tests of the rendered diagnostic for one program per error class, and
//! checks of elaboration and entry points on small programs with the prelude loaded.

use semantic::testing::{check_str, load_prelude};
use semantic::{EntryType, FileEnv};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use syntax::ast::{DecKind, ExprKind, Literal, PrimType};

fn prelude() -> Option<&'static FileEnv> {
    static P: OnceLock<Option<Arc<FileEnv>>> = OnceLock::new();
    P.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude");
        load_prelude(&dir).0
    })
    .as_deref()
}

/// Checks `src` and renders its diagnostics without colour.
fn render(src: &str) -> String {
    let (_, diags) = check_str(src, prelude());
    let sources = vec![("prog.fut".to_string(), src.to_string())];
    syntax::diag::render(&diags, &sources, false)
}

/// The codes of the diagnostics of `src`.
fn codes(src: &str) -> Vec<&'static str> {
    check_str(src, prelude()).1.iter().map(|d| d.code).collect()
}

macro_rules! snap {
    ($name:ident, $code:literal, $src:literal) => {
        #[test]
        fn $name() {
            assert_eq!(codes($src), vec![$code], "{}", render($src));
            insta::assert_snapshot!(render($src));
        }
    };
}

snap!(
    t001_unknown_name,
    "T001",
    "def main (x: i32) = x + lenght\ndef length' = 1\n"
);
snap!(t002_mismatch, "T002", "def main (x: i32) : bool = x + 1\n");
snap!(
    t002_decimal_literal_for_int,
    "T002",
    "def main (x: i32) : i32 = x + 1.5\n"
);
snap!(
    t002_argument_type,
    "T002",
    "def f (x: i32) (y: bool) = if y then x else 0\ndef main = f true false\n"
);
snap!(
    t002_unshared_constructors,
    "T002",
    "def f (v: #a | #b) : i32 = 0\ndef main = f (#c : #a | #c)\n"
);
snap!(
    t002_constructor_payloads,
    "T002",
    "type t = #a i32 | #b\ndef f (v: t) : i32 = match v case #a x y -> x case #b -> 0\n"
);
snap!(
    t002_abstract_types_qualified,
    "T002",
    "module type T = { type t val x : t }\nmodule M : T = { type t = i32 def x = 1i32 }\nmodule N : T = { type t = f32 def x = 1f32 }\ndef main = if true then M.x else N.x\n"
);
snap!(
    t004_field_typo,
    "T004",
    "def main = let r = {alpha = 1i32, beta = 2i32} in r.alpah\n"
);
snap!(
    t003_too_many_args,
    "T003",
    "def f (x: i32) = x\ndef main = f 1 2\n"
);
snap!(
    t004_unknown_field,
    "T004",
    "def main = let r = {a = 1i32} in r.b\n"
);
snap!(
    t005_nonexhaustive,
    "T005",
    "type t = #a | #b\ndef main (v: t) : i32 = match v case #a -> 1\n"
);
snap!(
    t006_ambiguous,
    "T006",
    "def main (xs: []i32) = let f = \\x -> x + x in length xs\n"
);
snap!(
    t007_function_in_array,
    "T007",
    "def id (x: i32) = x\ndef main = [id, id]\n"
);
snap!(
    t008_signature,
    "T008",
    "module m: {val x: i32} = {def x = 1f32}\ndef main = m.x\n"
);
snap!(
    t009_entry_function,
    "T009",
    "entry main (f: i32 -> i32) = f 1\n"
);
snap!(
    t010_duplicate_param,
    "T010",
    "def f (x: i32) (x: i32) = x\n"
);
snap!(
    t010_duplicate_let_pattern,
    "T010",
    "def main (a: i32) (b: i32) = let (x, x) = (a, b) in x\n"
);
snap!(
    t010_size_param_and_value_param,
    "T010",
    "def f [n] (n: i64) (xs: [n]i32) = xs\n"
);
snap!(
    t002_update_path_value,
    "T002",
    "def main (xs: *[]{f: i32, g: bool}) = xs with [0].f = true\n"
);
snap!(
    t004_update_path_field,
    "T004",
    "def main (r: *{a: [3]i32}) = r with a[0].b = 1\n"
);
snap!(
    t010_duplicate_definition,
    "T010",
    "def cube (x: f64) = x * x * x\nentry cube (x: f64) = cube x\n"
);
snap!(
    t011_type_arity,
    "T011",
    "type t 'a = a\ndef main (x: t) = 1i32\n"
);
snap!(
    t012_intrinsic,
    "T012",
    "def main : i32 = __intrinsic \"map\"\n"
);
snap!(
    s001_size_mismatch,
    "S001",
    "def main = zip (iota 3) (iota 4)\n"
);
snap!(s002_unknown_size, "S002", "def main (xs: [n]i32) = xs\n");
snap!(
    s002_unused_size_param,
    "S002",
    "def f [n] (x: i32) : i32 = x\ndef main = f 1\n"
);
snap!(t013_literal_out_of_range, "T013", "def main : i8 = 128\n");
snap!(
    s001_size_param_is_rigid,
    "S001",
    "def main [n] (xs: [n]i32) : [10]i32 = xs\n"
);
snap!(
    s001_compound_size_vs_constant,
    "S001",
    "def main [n] [m] (xs: [n]i32) (ys: [m]i32) : [10]i32 = xs ++ ys\n"
);
snap!(
    s002_size_scope_violation,
    "S002",
    "def main (ys: []i32) =\n  let f [n] (xs: [n]i32) = zip xs ys\n  in f\n"
);
snap!(
    t009_entry_return_polymorphic,
    "T009",
    "entry main [n] (x: i32) : [n]i32 = replicate n x\n"
);
snap!(
    t006_size_from_context_undetermined,
    "T006",
    "def f [n] (x: i32) : [n]i32 = replicate n x\ndef main (k: i32) = length (f k)\n"
);
snap!(
    t013_negative_unsigned_literal,
    "T013",
    "def main (x: u32) : u32 = x + -4\n"
);
snap!(
    t013_float_literal_overflow,
    "T013",
    "def main : f32 = 9.7e42\n"
);

/// Literals at the edges of their inferred types are accepted; the size parameter of
/// a function used only in its return type is determined by the call's context; a
/// type parameter need not be used.
#[test]
fn accepted_compatibility_edges() {
    for src in [
        "def main : (i8, i8, u8, u64, f16, i64) = (-128, 127, 255, 18446744073709551615, 65504, -9223372036854775808)\n",
        "def rep' [n] 't (x: t) : [n]t = replicate n x\ndef main : [3]i32 = rep' 1\n",
        "def keep 'unused (x: i32) : i32 = x\ndef main = keep 1\n",
    ] {
        assert_eq!(codes(src), Vec::<&str>::new(), "{}", render(src));
    }
}
snap!(
    s003_needs_coercion,
    "S003",
    "def main [n] (xs: [n]i32) : [n]i32 = let ys: [n]i32 = filter (> 0) xs in ys\n"
);
snap!(
    u001_use_after_consume,
    "U001",
    "def main (a: *[]i32) = let b = a with [0] = 1 in a[0] + b[0]\n"
);
snap!(
    u002_consume_nonunique,
    "U002",
    "def main (a: []i32) = a with [0] = 1\n"
);
snap!(
    u003_unique_result_alias,
    "U003",
    "def main (a: []i32) : *[]i32 = a\n"
);
snap!(
    u004_let_partial_consumes,
    "U004",
    "def set (xs: *[]i32) (i: i64) : *[]i32 = xs with [i] = 0\ndef main (xs: *[]i32) = let f = set xs in f 0\n"
);
snap!(
    u004_argument_partial_consumes,
    "U004",
    "def set (xs: *[]i32) (i: i64) : *[]i32 = xs with [i] = 0\ndef main (xs: *[]i32) (is: []i64) = map (set xs) is\n"
);
snap!(
    u005_self_aliased_argument,
    "U005",
    "def g (t: *([]i64, []i64)) = t.0[0]\ndef main (n: i64) = let x = iota n in g (x, x)\n"
);
snap!(
    u005_consumed_argument_aliases_other,
    "U005",
    "def put (src: []i32) (dst: *[]i32) : *[]i32 = dst with [0] = src[1]\ndef main (xs: *[]i32) = put xs xs\n"
);
snap!(
    u006_result_aliases_global,
    "U006",
    "def table : []i32 = [1, 2, 3]\ndef pick (b: bool) = if b then table else []\n"
);
snap!(
    u001_lambda_reads_consumed,
    "U001",
    "def main (xs: *[]i32) = let f = \\(i: i64) -> xs[i] let xs[0] = 1 in f 0\n"
);
snap!(
    s002_let_size_unused,
    "S002",
    "def main (xs: []i32) = let [k] ys = filter (> 0) xs in k + length ys\n"
);
snap!(
    u007_consuming_function_argument,
    "U007",
    "def zero_first (r: *[]i32) : *[]i32 = r with [0] = 0\ndef main (rows: *[][]i32) = map zero_first rows\n"
);
snap!(
    t002_record_update_changes_type,
    "T002",
    "def main (x: i32) = let r = {x, y = 1} in r with x = true\n"
);
snap!(
    t015_underscore_variable_used,
    "T015",
    "def main (_n: i32) = _n + 1\n"
);
snap!(
    t015_redefine_or_operator,
    "T015",
    "def (||) (x: bool) (y: bool) : bool = x\n"
);
snap!(
    s004_size_not_i64,
    "S004",
    "def main (n: i32) (xs: [n]f32) : f32 = xs[0]\n"
);
snap!(
    w002_array_equality,
    "W002",
    "def main [n] (xs: [n]i32) (ys: [n]i32) = xs == ys\n"
);

snap!(w003_ambiguous_definition, "W003", "def plus x y = x + y\n");

snap!(
    t014_recursion_changed_function,
    "T014",
    "def go (g: i64 -> i64) (n: i64) : i64 =\n  if n == 0 then g 0 else go (\\x -> g x * 2) (n - 1)\n"
);
snap!(
    t014_recursion_unsaturated,
    "T014",
    "def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =\n  if n == 0 then x else let g = repeat (n - 1) f in g (f x)\n"
);
snap!(
    t014_recursion_function_result,
    "T014",
    "def add (n: i64) : i64 -> i64 = \\x -> if n == 0 then x else add (n - 1) (x + 1)\n"
);
snap!(
    t008_intrinsics_module_expression,
    "T008",
    "module M = intrinsics\n"
);

#[test]
fn recursion_passing_functions_unchanged_is_accepted() {
    let c = codes(
        "def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =\n  if n == 0 then x else repeat (n - 1) f (f x)\ndef sum_to (n: i64) (acc: i64) : i64 = if n == 0 then acc else (sum_to (n - 1)) (acc + n)\n",
    );
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn literal_defaults_do_not_warn() {
    let c = codes("def one = 1\ndef inc x = x + 1\ndef f (x: f32) y = x + y\n");
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn equality_of_scalars_and_arrayless_tuples_does_not_warn() {
    let c = codes("def main (xs: []i32) (ys: []i32) = (xs[0] == ys[0], (1, true) != (2, false))\n");
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn independent_errors_are_all_reported() {
    let c = codes("def f = 1 + true\ndef g = nosuch 1\ndef h (x: i32) = x.y\n");
    assert_eq!(c, vec!["T002", "T001", "T004"]);
}

fn literal_types(src: &str) -> Vec<Option<PrimType>> {
    let (c, diags) = check_str(src, prelude());
    assert!(diags.is_empty(), "{diags:?}");
    let mut out = Vec::new();
    fn walk(e: &syntax::ast::Expr, out: &mut Vec<Option<PrimType>>) {
        match &e.kind {
            ExprKind::Literal(Literal::Int { ty, .. } | Literal::Float { ty, .. }) => out.push(*ty),
            ExprKind::BinOp(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Tuple(es) => es.iter().for_each(|e| walk(e, out)),
            ExprKind::Parens(e) => walk(e, out),
            ExprKind::Apply(f, args) => {
                walk(f, out);
                args.iter().for_each(|e| walk(e, out));
            }
            _ => {}
        }
    }
    for d in &c.ast.decs {
        if let DecKind::Val(vb) = &d.kind {
            walk(&vb.body, &mut out);
        }
    }
    out
}

#[test]
fn literals_are_elaborated_from_context_and_defaults() {
    assert_eq!(
        literal_types("def main (a: u8) (b: f32) = (a + 1, b * 2, 3, 2.5)\n"),
        vec![
            Some(PrimType::U8),
            Some(PrimType::F32),
            Some(PrimType::I32),
            Some(PrimType::F64)
        ]
    );
    assert_eq!(
        literal_types("def main (n: i64) = iota (n + 1)\n"),
        vec![Some(PrimType::I64)]
    );
}

#[test]
fn entry_points_describe_parameters_and_split_tuple_results() {
    let (c, diags) = check_str(
        "entry f (xs: [][]f32) (n: i64) : ([]f32, bool) = (xs[0], n > 0)\ndef main = 1\n",
        prelude(),
    );
    assert!(diags.is_empty(), "{diags:?}");
    // A top-level `def main` is an entry point alongside the declared ones.
    let names: Vec<&str> = c.entry_points.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["f", "main"]);
    let e = &c.entry_points[0];
    assert_eq!(
        e.params,
        vec![
            EntryType::Array {
                elem: PrimType::F32,
                rank: 2
            },
            EntryType::Array {
                elem: PrimType::I64,
                rank: 0
            }
        ]
    );
    assert_eq!(e.results.len(), 2);
}

#[test]
fn entry_types_keep_the_names_the_program_writes() {
    let (c, diags) = check_str(
        "type point = {x: f64, y: f64}\n\
         module M = { type t = {a: i32} }\n\
         module C : { type c val mk : i32 -> c } = { type c = i32 def mk (x: i32) = x }\n\
         entry f (p: point) (ps: []point) (m: M.t) : (C.c, {b: bool}) = (C.mk m.a, {b = p.x > ps[0].y})\n",
        prelude(),
    );
    assert!(diags.is_empty(), "{diags:?}");
    let e = &c.entry_points[0];
    let opaque = |t: &EntryType| match t {
        EntryType::Opaque(s) => s.clone(),
        t => panic!("{t:?}"),
    };
    let params: Vec<String> = e.params.iter().map(opaque).collect();
    assert_eq!(params[0], "point = {x: f64, y: f64}");
    // The structure keeps the array's size, which later stages remove.
    assert!(
        params[1].starts_with("[]point = [") && params[1].ends_with("]{x: f64, y: f64}"),
        "{}",
        params[1]
    );
    assert_eq!(params[2], "M.t = {a: i32}");
    // An abstract type is named alone; a record written out is its structure.
    let results: Vec<String> = e.results.iter().map(opaque).collect();
    assert_eq!(results, ["C.c", "{b: bool}"]);
    assert_eq!(e.params[1].opaque_name(), Some("[]point"));
    assert_eq!(e.results[1].opaque_name(), Some("{b: bool}"));
}

#[test]
fn main_is_the_entry_without_entry_declarations() {
    let (c, _) = check_str(
        "def helper (x: i32) = x\ndef main (x: i32) = helper x\n",
        prelude(),
    );
    assert_eq!(c.entry_points.len(), 1);
    assert_eq!(c.entry_points[0].name, "main");
}

#[test]
fn functors_apply_to_builtin_modules() {
    let src = "module type num = { type t val add: t -> t -> t val zero: t }\n\
               module mk (N: num) = { def sum (xs: []N.t) = reduce N.add N.zero xs }\n\
               module F = mk { type t = f64 def add (x: f64) (y: f64) = x + y def zero = 0.0 }\n\
               def main (xs: []f64) : f64 = F.sum xs + f64.sqrt 2\n";
    let (_, diags) = check_str(src, prelude());
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn abstract_types_are_opaque_after_ascription() {
    let src = "module m : { type t val mk: i32 -> t } = { type t = i32 def mk (x: i32) = x }\n\
               def main : i32 = m.mk 1\n";
    assert_eq!(codes(src), vec!["T002"]);
}

#[test]
fn arbitrary_text_does_not_panic() {
    let samples = [
        "def",
        "def f = ",
        "module m = {",
        "def f (x: [n]) = x",
        "type t = #a | #a",
        "def main = let (a, a) = (1, 2) in a",
        "def f 'a (x: a) = x.0.1",
        "module F (X: {}) = X module G = F F",
        "def f = f64.(1 + )",
        "def x = [[]] with [0] = 1",
        "def f = loop x = 1 while x do x",
        "def g = match 1 case _ -> \\x -> x",
        "open nothing",
        "module type s = {type t} with t = i32",
    ];
    for s in samples {
        let _ = check_str(s, prelude());
    }
    // Token soups from a fixed pseudo-random sequence.
    let toks = [
        "def", "let", "in", "x", "y", "=", "(", ")", "[", "]", "{", "}", "->", "\\", "1", "2.0",
        "+", "with", "loop", "for", "<", "do", "match", "case", "#a", ":", "i32", "*", "module",
        "type", "'a", "[n]", "?", ".", ",", "if", "then", "else", "f64.sqrt", ":>", "open",
        "local", "entry", "_", "true", "..<", "|>", "map", "|",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..300 {
        let mut prog = String::new();
        for _ in 0..40 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            prog.push_str(toks[(seed >> 33) as usize % toks.len()]);
            prog.push(' ');
        }
        let _ = check_str(&prog, prelude());
    }
    // Every prefix of a larger program.
    let prog = "module type num = { type t val add: t -> t -> t }\n\
                module mk (N: num) = { def twice (x: N.t) = N.add x x }\n\
                module I = mk i32\n\
                def main [n] (xs: *[n]i32) : [n]i32 = loop xs for i < n do xs with [i] = I.twice xs[i]\n";
    for i in 0..prog.len() {
        if prog.is_char_boundary(i) {
            let _ = check_str(&prog[..i], prelude());
        }
    }
}

#[test]
fn a_thousand_line_program_checks() {
    let mut src = String::new();
    for i in 0..250 {
        src.push_str(&format!(
            "def f{i} [n] (xs: [n]f64) (k: f64) : [n]f64 =\n  let ys = map (\\x -> x * k + {i}) xs\n  let s = reduce (+) 0 ys\n  in map (\\y -> y / s) ys\n"
        ));
    }
    let (c, diags) = check_str(&src, prelude());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(c.env.env.vals.len(), 250);
}

/// The size arguments recorded for each use of the function `f` in `src`, with the
/// argument expressions printed, in source order.
fn size_args_of(src: &str, f: &str) -> Vec<Vec<(String, String)>> {
    let (out, diags) = check_str(src, prelude());
    assert!(diags.iter().all(|d| !d.is_error()), "{}", render(src));
    struct Uses<'a>(&'a str, Vec<(usize, syntax::ast::NodeId)>);
    impl syntax::visit::VisitorMut for Uses<'_> {
        fn visit_expr(&mut self, e: &mut syntax::ast::Expr) {
            if let ExprKind::Var(qn) = &e.kind
                && &*qn.name.name == self.0
            {
                self.1.push((e.span.start as usize, e.id));
            }
            syntax::visit::walk_expr(self, e);
        }
    }
    let mut v = Uses(f, Vec::new());
    let mut file = (*out.ast).clone();
    syntax::visit::walk_file(&mut v, &mut file);
    let mut uses = v.1;
    uses.sort();
    uses.iter()
        .map(|(_, id)| {
            out.ast
                .size_args
                .get(id)
                .map(|args| {
                    args.iter()
                        .map(|(n, e)| (n.to_string(), syntax::pretty::pretty_expr(e)))
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect()
}

fn pairs(xs: &[(&str, &str)]) -> Vec<(String, String)> {
    xs.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn size_args_of_unflatten() {
    let src = "def f [p] (a: i64) (b: i64) (xs: [p]i32) = unflatten (xs :> [a * b]i32)\n\
               def g [n] [m] (xss: [n][m]i32) : [n][m]i32 = unflatten (flatten xss)\n\
               def h (xs: [6]i32) : [2][3]i32 = unflatten xs";
    assert_eq!(
        size_args_of(src, "unflatten"),
        vec![
            pairs(&[("n", "a"), ("m", "b")]),
            pairs(&[("n", "n"), ("m", "m")]),
            pairs(&[("n", "2i64"), ("m", "3i64")]),
        ]
    );
}

#[test]
fn size_args_of_split() {
    let src = "def f [n] (k: i64) (xs: [n]i32) = split (xs :> [k + (n - k)]i32)\n\
               def g (xs: [5]i32) : ([2]i32, [3]i32) = split xs";
    assert_eq!(
        size_args_of(src, "split"),
        vec![
            pairs(&[("n", "k"), ("m", "n - k")]),
            pairs(&[("n", "2i64"), ("m", "3i64")]),
        ]
    );
}

#[test]
fn size_args_of_user_function() {
    let src = "def pad [n] [k] (xs: [n]i32) (ys: [k]i32) : [n + k]i32 = xs ++ ys :> [n + k]i32\n\
               def f [m] (xs: [m]i32) (ys: [3]i32) = pad xs ys\n\
               def g [m] (xs: [m]i32) = pad xs (filter (> 0) xs)";
    assert_eq!(
        size_args_of(src, "pad"),
        vec![pairs(&[("n", "m"), ("k", "3i64")]), pairs(&[("n", "m")])]
    );
}

/// The element types recorded for the empty array literals of `src`, printed, in
/// source order (`None` where none is recorded).
fn empty_array_types_of(src: &str) -> Vec<Option<String>> {
    let (out, diags) = check_str(src, prelude());
    assert!(diags.iter().all(|d| !d.is_error()), "{}", render(src));
    struct Empties(Vec<(usize, syntax::ast::NodeId)>);
    impl syntax::visit::VisitorMut for Empties {
        fn visit_expr(&mut self, e: &mut syntax::ast::Expr) {
            if let ExprKind::ArrayLit(es) = &e.kind
                && es.is_empty()
            {
                self.0.push((e.span.start as usize, e.id));
            }
            syntax::visit::walk_expr(self, e);
        }
    }
    let mut v = Empties(Vec::new());
    let mut file = (*out.ast).clone();
    syntax::visit::walk_file(&mut v, &mut file);
    let mut uses = v.0;
    uses.sort();
    uses.iter()
        .map(|(_, id)| {
            out.ast
                .empty_array_types
                .get(id)
                .map(syntax::pretty::pretty_type)
        })
        .collect()
}

#[test]
fn empty_array_literals_get_their_element_types() {
    let src = "def a : []f32 = []\n\
               def b (x: f64) = let (p, ts) = (x, []) in (p, ts ++ [x])\n\
               def c = length ([] ++ [1])\n\
               def d (x: u8) = if x > 0 then [] else [(x, true)]\n\
               def e : [][2]{x: i64, y: #l | #r i16} = []\n\
               def f 't (x: t) : []t = []\n\
               def g 't (x: t) = (x, [] : []t)\n\
               module m = { type t = i32 def z : []t = [] }";
    assert_eq!(
        empty_array_types_of(src),
        vec![
            Some("f32".to_string()),
            Some("f64".to_string()),
            // Defaulted with the literal `1`.
            Some("i32".to_string()),
            Some("(u8, bool)".to_string()),
            Some("[2i64]{x: i64, y: #l | #r i16}".to_string()),
            // Type parameters are not concrete.
            None,
            None,
            Some("i32".to_string()),
        ]
    );
}

#[test]
fn recursive_functions_need_a_return_type() {
    assert!(codes("def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)\n").is_empty());
    // Size parameters are instantiated afresh at each recursive call.
    assert!(
        codes(
            "def f [n] (xs: [n]i32) : i32 =\n  if n == 0 then 0 else xs[0] + f (filter (> 0) xs)\n"
        )
        .is_empty()
    );
    let src = "def h (x: i32) = if x == 0 then 0 else h (x - 1)\n";
    assert_eq!(codes(src), vec!["T001"]);
    assert!(render(src).contains("recursive function needs a return type"));
    // An earlier binding of the same name (here opened from a module, since one
    // declaration level may not define a name twice) is what the body refers to.
    let src = "module m = { def g (x: i32) = x }\nopen m\ndef g (x: i32) : i32 = g x + 1\n";
    assert!(codes(src).is_empty(), "{}", render(src));
    assert_eq!(
        codes("def g (x: i32) = x\ndef g (x: i32) : i32 = g x + 1\n"),
        vec!["T010"]
    );
}

#[test]
fn anonymous_return_sizes_are_shared_when_the_body_makes_them_equal() {
    let ok = "def p (n: i64) : ([]i64, []i64) = let k = n + 1 in (iota k, iota k)\n\
              def main (n: i64) = let (a, b) = p n in map2 (+) a b\n";
    assert!(codes(ok).is_empty(), "{}", render(ok));
    let ok2 = "def p (xs: []i64) : ([]i64, []i64) = (xs, map (+ 1) xs)\n\
               def main (xs: []i64) = let (a, b) = p xs in map2 (+) a b\n";
    assert!(codes(ok2).is_empty(), "{}", render(ok2));
    let bad = "def p (n: i64) : ([]i64, []i64) = (iota n, iota (n + 1))\n\
               def main (n: i64) = let (a, b) = p n in map2 (+) a b\n";
    assert_eq!(codes(bad), vec!["S003"]);
}

#[test]
fn local_functions_are_polymorphic_only_with_explicit_type_parameters() {
    let mono = "def main (x: i32) (b: bool) =\n  let id y = y\n  in (id x, id b)\n";
    assert_eq!(codes(mono), vec!["T002"], "{}", render(mono));
    let poly = "def main (x: i32) (b: bool) =\n  let id 'a (y: a) = y\n  in (id x, id b)\n";
    assert!(codes(poly).is_empty(), "{}", render(poly));
    let one_type = "def main (x: i32) =\n  let twice f y = f (f y)\n  in twice (\\v -> v + 1) x\n";
    assert!(codes(one_type).is_empty(), "{}", render(one_type));
    let sizes =
        "def main (a: []i32) (b: []i32) =\n  let len (xs: []i32) = length xs\n  in len a + len b\n";
    assert!(codes(sizes).is_empty(), "{}", render(sizes));
}

#[test]
fn size_parameters_inside_compound_sizes_need_known_argument_sizes() {
    let head = "def pred_len [n] (_: [n+1]i64) : i64 = n\n";
    let known = format!("{head}def main (k: i64) = pred_len (iota (k + 1))\n");
    assert!(codes(&known).is_empty(), "{}", render(&known));
    let unknown = format!("{head}def main (k: i64) = pred_len (filter (> 0) (iota k))\n");
    assert_eq!(codes(&unknown), vec!["S003"], "{}", render(&unknown));
    let let_bound = format!("{head}def main (k: i64) = pred_len (let j = k + 1 in iota (j + 1))\n");
    assert_eq!(codes(&let_bound), vec!["S003"], "{}", render(&let_bound));
}

#[test]
fn parameter_type_fixed_by_an_earlier_literal_argument_is_shown() {
    let src = "def f 't (x: t) (y: t) = (x, y)\ndef main = f 1 false\n";
    let (_, diags) = check_str(src, prelude());
    assert_eq!(diags.len(), 1, "{}", render(src));
    assert_eq!(
        diags[0].message,
        "Cannot apply \"f\" to \"false\": Argument of type `bool` passed for parameter of type `i32`"
    );
}

#[test]
fn size_dependent_functions_cannot_be_mapped() {
    let head = "def upto (k: i64) : [k]i64 = iota k\n";
    let mapped = format!("{head}def main (n: i64) = map upto (iota n)\n");
    assert_eq!(codes(&mapped), vec!["S002"], "{}", render(&mapped));
    let applied = format!(
        "{head}def app (g: (m: i64) -> [m]i64) (n: i64) = g n\ndef main (n: i64) = app upto n\n"
    );
    assert!(codes(&applied).is_empty(), "{}", render(&applied));
    let same_size = format!("{head}def main (n: i64) = map (\\_ -> upto 3) (iota n)\n");
    assert!(codes(&same_size).is_empty(), "{}", render(&same_size));
}

#[test]
fn lambda_parameters_take_part_in_the_causality_check() {
    let late = "def main (ys: []i64) = (\\g -> g (filter (> 1) ys)) (\\_ -> 7i64)\n";
    assert_eq!(codes(late), vec!["S003"], "{}", render(late));
    let early = "def main (ys: []i64) = let zs = filter (> 1) ys in (\\g -> g zs) (\\_ -> 7i64)\n";
    assert!(codes(early).is_empty(), "{}", render(early));
}

#[test]
fn module_values_used_as_sizes_are_compared_in_signature_matching() {
    let sig = "module type sized = { val k: i64 val v: [k]i64 }\n";
    let bad = format!("{sig}module m : sized = {{ def k = 3i64 def v = iota (k + 2) }}\n");
    let d = render(&bad);
    assert_eq!(codes(&bad), vec!["T008"], "{d}");
    assert!(d.contains("Dimensions `3` and `5` do not match"), "{d}");
    let hidden = format!("{sig}module m : sized = {{ def k = 3i64 def v : []i64 = iota k }}\n");
    assert_eq!(codes(&hidden), vec!["T008"], "{}", render(&hidden));
    let good = format!(
        "{sig}module m : sized = {{ def k : i64 = 1 + 2 def v = iota k }}\n\
         module n : sized = {{ def k = 4i64 def v = replicate k 0i64 }}\n\
         def main = m.v[0] + n.v[0]\n"
    );
    assert!(codes(&good).is_empty(), "{}", render(&good));
    let functor = "module type vs = { val n: i64 val xs: [n]f32 }\n\
                   module mk (P: vs) = { def zs = zip P.xs (iota P.n) }\n\
                   module a = mk { def n = 4i64 def xs = replicate n 1f32 }\n\
                   module b = mk { def n = 4i64 def xs = replicate 5 1f32 }\n";
    assert_eq!(codes(functor), vec!["T008"], "{}", render(functor));
}

#[test]
fn each_call_of_a_function_without_return_type_makes_its_own_unknown_sizes() {
    let head = "def g (x: i64) = filter (> x) (iota 10)\n";
    let two_calls = format!("{head}def main = zip (g 1) (g 2)\n");
    assert_eq!(codes(&two_calls), vec!["S003"], "{}", render(&two_calls));
    let one_call = format!("{head}def main = let ys = g 1 in zip ys ys\n");
    assert!(codes(&one_call).is_empty(), "{}", render(&one_call));
    let shared = "def g (x: i64) = let ys = filter (> x) (iota 10) in (ys, ys)\n\
                  def main = let (a, b) = g 1 in zip a b\n";
    assert!(codes(shared).is_empty(), "{}", render(shared));
    let local = "def main = let g (x: i64) = filter (> x) (iota 10) in zip (g 1) (g 2)\n";
    assert_eq!(codes(local), vec!["S003"], "{}", render(local));
}

#[test]
fn section_parameters_take_part_in_the_causality_check() {
    let late = "def main (xs: []i64) : []i64 = ([0] ++) <| filter (> 0) xs\n";
    assert_eq!(codes(late), vec!["S003"], "{}", render(late));
    let right = "def main (xs: []i64) : []i64 = (++ [0]) <| filter (> 0) xs\n";
    assert_eq!(codes(right), vec!["S003"], "{}", render(right));
    let early = "def main (xs: []i64) : []i64 = let ys = filter (> 0) xs in ([0] ++) <| ys\n";
    assert!(codes(early).is_empty(), "{}", render(early));
    let mapped = "def main (xss: [][]i64) = map (++ [0]) xss\n";
    assert!(codes(mapped).is_empty(), "{}", render(mapped));
}

#[test]
fn if_branches_take_part_in_the_causality_check() {
    let head = "type maybe 'a = #nothing | #just a\n";
    let check = |body: &str| {
        let src = format!("{head}def main (b: bool) (xs: []i64) : maybe ([]i64) = {body}\n");
        (codes(&src), render(&src))
    };
    let (c, d) = check("if b then #nothing else #just (filter (> 0) xs)");
    assert_eq!(c, vec!["S003"], "{d}");
    assert!(
        d.contains("Causality check: the type of the `then` branch would contain `[]i64`"),
        "{d}"
    );
    // A nested `if` is reported once, where the size is made.
    let (c, d) = check("if b then #nothing else if b then #nothing else #just (filter (> 0) xs)");
    assert_eq!(c, vec!["S003"], "{d}");
    // The size exists before the `if`, or before the branch that needs it.
    for ok in [
        "let ys = filter (> 0) xs in if b then #nothing else #just ys",
        "if b then #just (filter (> 0) xs) else #nothing",
        "if b then #just [1] else #just (filter (> 0) xs)",
    ] {
        let (c, d) = check(ok);
        assert!(c.is_empty(), "{ok}: {d}");
    }
    let empty = "def main (b: bool) (xs: []i64) = if b then [] else [filter (> 0) xs]\n";
    assert_eq!(codes(empty), vec!["S003"], "{}", render(empty));
}

#[test]
fn loop_results_whose_size_the_body_changes_have_a_size_made_after_the_loop() {
    let check = |src: &str| (codes(src), render(src));
    let late =
        "def main (n: i64) : []i64 =\n  ([0] ++) <| loop acc = [] for i < n do acc ++ acc ++ [i]\n";
    let (c, d) = check(late);
    assert_eq!(c, vec!["S003"], "{d}");
    assert!(d.contains("Causality check"), "{d}");
    let grown = "def f [n] (xs: [n]i64) = zip xs (loop acc = xs for i < 3 do acc ++ [1])\n";
    assert_eq!(check(grown).0, vec!["S003"], "{}", check(grown).1);
    for ok in [
        // The body keeps the parameter's size.
        "def main (n: i64) (xs: []i64) : []i64 =\n  ([0] ++) <| loop acc = xs for i < n do map (+ 1) acc\n",
        "def f [n] (xs: [n]i64) = zip xs (loop acc = xs for i < 3 do map (* 2) acc)\n",
        // Sizes equal in the initial value share one name in the body.
        "def mm [n] (a: [n][n]i32) (b: [n][n]i32) : [n][n]i32 = a\n\
         def f [n] (a: [n][n]i32) (k: i32) : [n][n]i32 = loop r = a for _i < k do mm r a\n",
        // The body returns a value of the initial value's size.
        "def f [n] (xs: [n]i64) (ys: [n]i64) = zip xs (loop acc = xs for i < 3 do ys)\n",
        // The loop result is bound before the section is made.
        "def main (n: i64) : []i64 =\n  let r = loop acc = [] for i < n do acc ++ [i] in ([0] ++) <| r\n",
    ] {
        let (c, d) = check(ok);
        assert!(c.is_empty(), "{ok}: {d}");
    }
}

snap!(
    s003_loop_declared_size_changed_by_body,
    "S003",
    "def main [n] (xs: [n]i32) : [n]i32 =\n  loop (acc: [n]i32) = xs for i < 3 do acc ++ [1]\n"
);

#[test]
fn loop_parameter_sizes_are_inferred_from_the_initial_value() {
    for ok in [
        // An `if` joining the parameter with an array of the initial size keeps it.
        "entry main (n: i64) (c: bool) : [n]i32 =\n  loop acc = replicate n 0i32 for i < n do\n    \
         let t = if c then acc else replicate n 1\n    in map2 (+) t (replicate n 1)\n",
        // The parameter in the `else` branch.
        "entry main (n: i64) (c: bool) : [n]i32 =\n  loop acc = replicate n 0i32 for i < n do\n    \
         let t = if c then replicate n 1 else acc\n    in map2 (+) t (replicate n 1)\n",
        // A tuple of parameters sharing one size.
        "def main [n] (xs: [n]i32) (c: bool) : ([n]i32, [n]i32) =\n  \
         loop (a, b) = (xs, xs) for i < 3 do\n    \
         let t = if c then a else b\n    in (map2 (+) t xs, b)\n",
        // A declared size the body keeps.
        "def main [n] (xs: [n]i32) : [n]i32 =\n  loop (acc: [n]i32) = xs for i < 3 do map2 (+) acc xs\n",
        // An `if` giving the parameter another size: the result's size is unknown.
        "entry main (n: i64) (m: i64) (c: bool) : i64 =\n  \
         length (loop acc = replicate n 0i32 for i < 2 do if c then replicate m 1 else acc)\n",
    ] {
        assert!(codes(ok).is_empty(), "{ok}: {}", render(ok));
    }
    // The body changed the size, so the result is not of the initial size.
    let changed = "entry main (n: i64) (m: i64) (c: bool) : [n]i32 =\n  \
                   loop acc = replicate n 0i32 for i < 2 do if c then replicate m 1 else acc\n";
    assert_eq!(codes(changed), vec!["S003"], "{}", render(changed));
    // The parameter's size taken to be the size of an array made inside the body.
    let inner = "def main [n] (xs: [n]i32) : []i32 =\n  \
                 loop acc = xs for i < 3 do\n    let ys = filter (> 0) acc\n    in map2 (+) acc ys\n";
    assert_eq!(codes(inner), vec!["S003"], "{}", render(inner));
    // A declared size that the body's unknown size does not keep.
    let unknown = "def main [n] (xs: [n]i32) : [n]i32 =\n  \
                   loop (acc: [n]i32) = xs for i < 3 do filter (> 0) acc\n";
    assert_eq!(codes(unknown), vec!["S003"], "{}", render(unknown));
}

#[test]
fn loop_parameter_sizes_are_not_size_arguments() {
    let src = "def keep [n] (xs: [n]i64) : [n]i64 = xs\n\
               def main (xs: []i64) = loop acc = xs for i < 2 do keep acc\n\
               def g [m] (xs: [m]i64) = keep (loop acc = xs for i < 2 do keep acc)\n";
    assert_eq!(
        size_args_of(src, "keep"),
        vec![vec![], vec![], vec![]],
        "{}",
        render(src)
    );
}

#[test]
fn size_parameters_nothing_determines_are_ambiguous() {
    let bad = "def g [a] [b] (xs: [a][b]f64) (zs: [a]f64) : f64 = f64.sum (flatten xs) + f64.sum zs\n\
               def main (ys: [6]f64) (zs: [2]f64) : f64 = g (unflatten ys) zs\n";
    assert_eq!(codes(bad), vec!["T006"], "{}", render(bad));
    let fixed = "def g [a] [b] (xs: [a][b]f64) (zs: [a]f64) : f64 = f64.sum (flatten xs) + f64.sum zs\n\
                 def main (ys: [6]f64) (zs: [2]f64) : f64 = g (unflatten ys : [2][3]f64) zs\n";
    assert!(codes(fixed).is_empty(), "{}", render(fixed));
    let returned = "def h [n] [m] (ys: [n*m]f64) : [n][m]f64 = unflatten ys\n\
                    def main (ys: [6]f64) = h ys : [3][2]f64\n";
    assert!(codes(returned).is_empty(), "{}", render(returned));
}

#[test]
fn if_branches_of_different_sizes_have_an_unknown_size() {
    let bad = "def main [n] (xs: [n]f64) (c: bool) : [n]f64 =\n  let ys: [n]f64 = if c then xs else xs ++ xs\n  in ys\n";
    assert_eq!(codes(bad), vec!["S003"], "{}", render(bad));
    let ok = "def main [n] (xs: [n]f64) (c: bool) : f64 =\n  let ys = if c then xs else xs ++ xs\n  in f64.sum (map (* 2) ys)\n";
    assert!(codes(ok).is_empty(), "{}", render(ok));
    let same = "def main [n] (xs: [n]f64) (c: bool) : [n]f64 =\n  if c then xs else map (* 2) xs\n";
    assert!(codes(same).is_empty(), "{}", render(same));
}
