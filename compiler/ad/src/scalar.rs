//! Derivatives of scalar statements: unary and binary operators,
//! conversions and math functions. Each rule computes the partial
//! derivatives `∂f/∂xᵢ` with respect to the active operands, as the
//! reference interpreter does; forward mode sums `∂f/∂xᵢ · ẋᵢ` in operand
//! order, reverse mode adds `∂f/∂xᵢ · ȳ` to each operand's adjoint.

use ir::{
    BinOp, Body, CmpOp, Exp, LoopForm, MathFn, Operand, Param, PrimType, Stm, Type, UnOp, VarId,
};

use crate::ctx::{Ctx, R, differentiable, konst};

impl Ctx<'_> {
    /// The tangent of `y = exp` for a scalar expression, if it has one.
    pub fn scalar_tangent(
        &mut self,
        out: &mut Vec<Stm>,
        y: VarId,
        exp: &Exp,
    ) -> R<Option<Operand>> {
        if !differentiable(&self.ty(y)) {
            return Ok(None);
        }
        if let Exp::Convert(kind, to, a) = exp {
            // The tangent converts (or reinterprets) as the value does.
            let from = self.op_ty(a).elem;
            let Some(t) = self.tangent(a) else {
                return Ok(None);
            };
            return if from == PrimType::Bool || *to == PrimType::Bool {
                Ok(None)
            } else if from == *to {
                Ok(Some(t))
            } else {
                let c = self.bind(out, "d", Exp::Convert(*kind, *to, t))?;
                Ok(Some(c.into()))
            };
        }
        let operands: Vec<Operand> = match exp {
            Exp::UnOp(_, a) => vec![*a],
            Exp::BinOp(_, a, b) => vec![*a, *b],
            Exp::Math(_, args) => args.clone(),
            _ => Vec::new(),
        };
        let with_tan: Vec<Operand> = operands
            .into_iter()
            .filter(|o| self.tangent(o).is_some())
            .collect();
        let active = |o: &Operand| with_tan.contains(o);
        let Some(partials) = self.scalar_partials(out, y, exp, &active)? else {
            return Ok(None);
        };
        let t = self.ty(y).elem;
        let terms = partials
            .into_iter()
            .filter_map(|(x, d)| self.tangent(&x).map(|tx| (d, tx)))
            .collect();
        Ok(Some(self.lin(out, t, terms)?))
    }

    /// The partial derivatives of `y = exp` (a unary or binary operator or
    /// a math function) with respect to its operands for which `active`
    /// holds, in operand order, each with its operand; `None` where the
    /// result has no derivative (no active operand, a piecewise constant
    /// function, a predicate, an integer operation other than `+ - * /
    /// pow min max neg abs`).
    pub fn scalar_partials(
        &mut self,
        out: &mut Vec<Stm>,
        y: VarId,
        exp: &Exp,
        active: &dyn Fn(&Operand) -> bool,
    ) -> R<Option<Vec<(Operand, Operand)>>> {
        if !differentiable(&self.ty(y)) {
            return Ok(None);
        }
        match exp {
            Exp::UnOp(op, a) => self.unop_partials(out, *op, *a, active),
            Exp::BinOp(op, a, b) => self.binop_partials(out, *op, *a, *b, y, active),
            Exp::Math(f, args) => self.math_partials(out, *f, args, y, active),
            _ => Ok(None),
        }
    }

    fn unop_partials(
        &mut self,
        out: &mut Vec<Stm>,
        op: UnOp,
        a: Operand,
        active: &dyn Fn(&Operand) -> bool,
    ) -> R<Option<Vec<(Operand, Operand)>>> {
        let t = self.op_ty(&a).elem;
        if !active(&a) {
            return Ok(None);
        }
        let d = match op {
            UnOp::Neg => konst(t, -1.0),
            UnOp::Abs => {
                let gt = self.cmp(out, CmpOp::Gt, a, konst(t, 0.0))?;
                let lt = self.cmp(out, CmpOp::Lt, a, konst(t, 0.0))?;
                let p = self.conv(out, t, gt)?;
                let n = self.conv(out, t, lt)?;
                self.bin(out, BinOp::Sub, p, n)?
            }
            UnOp::Not | UnOp::Signum => return Ok(None),
        };
        Ok(Some(vec![(a, d)]))
    }

    fn binop_partials(
        &mut self,
        out: &mut Vec<Stm>,
        op: BinOp,
        a: Operand,
        b: Operand,
        y: VarId,
        active: &dyn Fn(&Operand) -> bool,
    ) -> R<Option<Vec<(Operand, Operand)>>> {
        let t = self.op_ty(&a).elem;
        let (ta, tb) = (active(&a), active(&b));
        if !ta && !tb {
            return Ok(None);
        }
        let float = t.is_float();
        let arithmetic = matches!(
            op,
            BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::Min
                | BinOp::Max
                | BinOp::Pow
        );
        if !float && !arithmetic {
            return Ok(None);
        }
        let one = konst(t, 1.0);
        let zero = konst(t, 0.0);
        let y = Operand::Var(y);
        let (da, db) = match op {
            BinOp::Add => (one, one),
            BinOp::Sub => (one, konst(t, -1.0)),
            BinOp::Mul => (b, a),
            BinOp::Div if !float => {
                let inv = self.bin(out, BinOp::Div, one, b)?;
                let bb = self.bin(out, BinOp::Mul, b, b)?;
                let q = self.bin(out, BinOp::Div, a, bb)?;
                (inv, self.un(out, UnOp::Neg, q)?)
            }
            BinOp::Div | BinOp::Quot => {
                let inv = self.bin(out, BinOp::Div, one, b)?;
                let yi = self.bin(out, BinOp::Mul, y, inv)?;
                (inv, self.un(out, UnOp::Neg, yi)?)
            }
            BinOp::Mod | BinOp::Rem => {
                let q = self.bin(out, BinOp::Div, a, b)?;
                let q = self.math(out, MathFn::Trunc, vec![q])?;
                (one, self.un(out, UnOp::Neg, q)?)
            }
            BinOp::Pow if !float => {
                // b·a^(b-1), or zero where b-1 is negative (no derivative in b).
                let bm1 = self.bin(out, BinOp::Sub, b, one)?;
                let neg = self.cmp(out, CmpOp::Lt, bm1, zero)?;
                let mut inner = Vec::new();
                let p = self.bin(&mut inner, BinOp::Pow, a, bm1)?;
                let bp = self.bin(&mut inner, BinOp::Mul, b, p)?;
                let v = self.fresh("d", Type::scalar(t));
                self.push(
                    out,
                    vec![v],
                    Exp::If {
                        cond: neg,
                        then_body: Body {
                            stms: Vec::new(),
                            result: vec![zero],
                        },
                        else_body: Body {
                            stms: inner,
                            result: vec![bp],
                        },
                    },
                );
                (v.into(), zero)
            }
            BinOp::Pow => {
                let bm1 = self.bin(out, BinOp::Sub, b, one)?;
                let p = self.bin(out, BinOp::Pow, a, bm1)?;
                let bp = self.bin(out, BinOp::Mul, b, p)?;
                let bz = self.cmp(out, CmpOp::Eq, b, zero)?;
                let da = self.select(out, t, bz, zero, bp);
                let l = self.math(out, MathFn::Log, vec![a])?;
                let yl = self.bin(out, BinOp::Mul, y, l)?;
                let pos = self.cmp(out, CmpOp::Gt, a, zero)?;
                let db = self.select(out, t, pos, yl, zero);
                (da, db)
            }
            BinOp::Min | BinOp::Max => {
                let c = if op == BinOp::Min {
                    CmpOp::Le
                } else {
                    CmpOp::Ge
                };
                let mut pick = self.cmp(out, c, a, b)?;
                if float {
                    let nan = self.math(out, MathFn::IsNan, vec![b])?;
                    pick = self.bin(out, BinOp::Or, pick, nan)?;
                }
                let not = self.un(out, UnOp::Not, pick)?;
                (self.conv(out, t, pick)?, self.conv(out, t, not)?)
            }
            _ => return Ok(None),
        };
        let mut partials = Vec::new();
        if ta {
            partials.push((a, da));
        }
        if tb {
            partials.push((b, db));
        }
        Ok(Some(partials))
    }

    fn math_partials(
        &mut self,
        out: &mut Vec<Stm>,
        f: MathFn,
        args: &[Operand],
        y: VarId,
        active: &dyn Fn(&Operand) -> bool,
    ) -> R<Option<Vec<(Operand, Operand)>>> {
        let Some(&x) = args.first() else {
            return Ok(None);
        };
        let t = self.op_ty(&x).elem;
        let tans: Vec<bool> = args.iter().map(active).collect();
        if !t.is_float() || !tans.iter().any(|a| *a) {
            return Ok(None);
        }
        let y = Operand::Var(y);
        let k = |v: f64| konst(t, v);
        let partials: Vec<Operand> = match f {
            // As `a*b + c`.
            MathFn::Fma | MathFn::Mad => vec![args[1], args[0], k(1.0)],
            MathFn::Atan2 => {
                let (a, b) = (args[0], args[1]);
                let aa = self.bin(out, BinOp::Mul, a, a)?;
                let bb = self.bin(out, BinOp::Mul, b, b)?;
                let r2 = self.bin(out, BinOp::Add, aa, bb)?;
                let da = self.bin(out, BinOp::Div, b, r2)?;
                let q = self.bin(out, BinOp::Div, a, r2)?;
                vec![da, self.un(out, UnOp::Neg, q)?]
            }
            MathFn::Hypot => vec![
                self.bin(out, BinOp::Div, args[0], y)?,
                self.bin(out, BinOp::Div, args[1], y)?,
            ],
            MathFn::CopySign => {
                let la = self.cmp(out, CmpOp::Lt, args[0], k(0.0))?;
                let lb = self.cmp(out, CmpOp::Lt, args[1], k(0.0))?;
                let same = self.cmp(out, CmpOp::Eq, la, lb)?;
                vec![self.select(out, t, same, k(1.0), k(-1.0)), k(0.0)]
            }
            _ => match self.unary_partial(out, f, x, y, t)? {
                Some(d) => vec![d],
                None => return Ok(None),
            },
        };
        Ok(Some(
            args.iter()
                .zip(partials)
                .zip(tans)
                .filter(|(_, a)| *a)
                .map(|((x, d), _)| (*x, d))
                .collect(),
        ))
    }

    /// The derivative of `y = f(x)` for a unary math function; `None` for
    /// piecewise constant functions and predicates.
    fn unary_partial(
        &mut self,
        out: &mut Vec<Stm>,
        f: MathFn,
        x: Operand,
        y: Operand,
        t: PrimType,
    ) -> R<Option<Operand>> {
        let k = |v: f64| konst(t, v);
        let one = k(1.0);
        let d = match f {
            MathFn::Sqrt => {
                let m = self.bin(out, BinOp::Mul, k(2.0), y)?;
                self.bin(out, BinOp::Div, one, m)?
            }
            MathFn::Cbrt => {
                let yy = self.bin(out, BinOp::Mul, y, y)?;
                let m = self.bin(out, BinOp::Mul, k(3.0), yy)?;
                self.bin(out, BinOp::Div, one, m)?
            }
            MathFn::Exp => y,
            MathFn::Expm1 => self.bin(out, BinOp::Add, y, one)?,
            MathFn::Log => self.bin(out, BinOp::Div, one, x)?,
            MathFn::Log2 | MathFn::Log10 => {
                let c = if f == MathFn::Log2 {
                    std::f64::consts::LN_2
                } else {
                    std::f64::consts::LN_10
                };
                let m = self.bin(out, BinOp::Mul, x, k(c))?;
                self.bin(out, BinOp::Div, one, m)?
            }
            MathFn::Log1p => {
                let s = self.bin(out, BinOp::Add, x, one)?;
                self.bin(out, BinOp::Div, one, s)?
            }
            MathFn::Sin => self.math(out, MathFn::Cos, vec![x])?,
            MathFn::Cos => {
                let s = self.math(out, MathFn::Sin, vec![x])?;
                self.un(out, UnOp::Neg, s)?
            }
            MathFn::Tan => {
                let yy = self.bin(out, BinOp::Mul, y, y)?;
                self.bin(out, BinOp::Add, one, yy)?
            }
            MathFn::Asin | MathFn::Acos => {
                let xx = self.bin(out, BinOp::Mul, x, x)?;
                let s = self.bin(out, BinOp::Sub, one, xx)?;
                let r = self.math(out, MathFn::Sqrt, vec![s])?;
                let d = self.bin(out, BinOp::Div, one, r)?;
                if f == MathFn::Acos {
                    self.un(out, UnOp::Neg, d)?
                } else {
                    d
                }
            }
            MathFn::Atan => {
                let xx = self.bin(out, BinOp::Mul, x, x)?;
                let s = self.bin(out, BinOp::Add, one, xx)?;
                self.bin(out, BinOp::Div, one, s)?
            }
            MathFn::Sinh => self.math(out, MathFn::Cosh, vec![x])?,
            MathFn::Cosh => self.math(out, MathFn::Sinh, vec![x])?,
            MathFn::Tanh => {
                let yy = self.bin(out, BinOp::Mul, y, y)?;
                self.bin(out, BinOp::Sub, one, yy)?
            }
            MathFn::Asinh | MathFn::Acosh => {
                let xx = self.bin(out, BinOp::Mul, x, x)?;
                let s = if f == MathFn::Asinh {
                    self.bin(out, BinOp::Add, xx, one)?
                } else {
                    self.bin(out, BinOp::Sub, xx, one)?
                };
                let r = self.math(out, MathFn::Sqrt, vec![s])?;
                self.bin(out, BinOp::Div, one, r)?
            }
            MathFn::Atanh => {
                let xx = self.bin(out, BinOp::Mul, x, x)?;
                let s = self.bin(out, BinOp::Sub, one, xx)?;
                self.bin(out, BinOp::Div, one, s)?
            }
            MathFn::Erf | MathFn::Erfc => {
                let c = 2.0 / std::f64::consts::PI.sqrt();
                let c = if f == MathFn::Erf { c } else { -c };
                let xx = self.bin(out, BinOp::Mul, x, x)?;
                let n = self.un(out, UnOp::Neg, xx)?;
                let e = self.math(out, MathFn::Exp, vec![n])?;
                self.bin(out, BinOp::Mul, k(c), e)?
            }
            MathFn::Gamma => {
                let psi = self.digamma(out, x, t)?;
                self.bin(out, BinOp::Mul, y, psi)?
            }
            MathFn::Lgamma => self.digamma(out, x, t)?,
            _ => return Ok(None),
        };
        Ok(Some(d))
    }

    /// ψ(x), the digamma function: the recurrence ψ(x) = ψ(x+1) − 1/x
    /// moves `x` to at least 6, where the asymptotic series is used.
    fn digamma(&mut self, out: &mut Vec<Stm>, x: Operand, t: PrimType) -> R<Operand> {
        let k = |v: f64| konst(t, v);
        let st = Type::scalar(t);
        let go = self.fresh("psi_go", Type::scalar(PrimType::Bool));
        let z = self.fresh("psi_z", st.clone());
        let acc = self.fresh("psi_acc", st.clone());
        let go0 = self.cmp(out, CmpOp::Lt, x, k(6.0))?;
        let mut body = Vec::new();
        let r = self.bin(&mut body, BinOp::Div, k(1.0), z.into())?;
        let acc1 = self.bin(&mut body, BinOp::Sub, acc.into(), r)?;
        let z1 = self.bin(&mut body, BinOp::Add, z.into(), k(1.0))?;
        let go1 = self.cmp(&mut body, CmpOp::Lt, z1, k(6.0))?;
        let (gz, zz, az) = (
            self.fresh("psi_go", Type::scalar(PrimType::Bool)),
            self.fresh("psi_z", st.clone()),
            self.fresh("psi_acc", st),
        );
        self.push(
            out,
            vec![gz, zz, az],
            Exp::Loop {
                params: vec![
                    (Param::new(go), go0),
                    (Param::new(z), x),
                    (Param::new(acc), k(0.0)),
                ],
                form: LoopForm::While { cond: go },
                body: Body {
                    stms: body,
                    result: vec![go1, z1, acc1],
                },
            },
        );
        let zo = Operand::Var(zz);
        let r = self.bin(out, BinOp::Div, k(1.0), zo)?;
        let r2 = self.bin(out, BinOp::Mul, r, r)?;
        // ln z − r/2 − r²(1/12 − r²(1/120 − r²(1/252 − r²(1/240 − r²/132)))).
        let mut s = self.bin(out, BinOp::Div, r2, k(132.0))?;
        for c in [1.0 / 240.0, 1.0 / 252.0, 1.0 / 120.0, 1.0 / 12.0] {
            let d = self.bin(out, BinOp::Sub, k(c), s)?;
            s = self.bin(out, BinOp::Mul, r2, d)?;
        }
        let l = self.math(out, MathFn::Log, vec![zo])?;
        let h = self.bin(out, BinOp::Mul, k(0.5), r)?;
        let l = self.bin(out, BinOp::Sub, l, h)?;
        let l = self.bin(out, BinOp::Sub, l, s)?;
        self.bin(out, BinOp::Add, l, az.into())
    }
}
